// Work done once per key at a time, for callers that want the answer now (a cron route) rather than a queued job:
// the first caller claims the key's job row (inserting it, or re-claiming one that finished, failed or whose
// worker died) and runs the work under a heartbeat lease; a caller arriving while that run is in flight waits
// for it and answers with its stored result instead of doing the work again. A caller after the run finished
// runs it again: re-running is allowed, overlapping is not. The row keeps the last run's state and result.
import { randomBytes } from 'node:crypto';
import { AppError } from '../errors';
import { holdJobLease, type JobLease } from './job-lease';
import type { JobEngineDeps } from './job';
import { WORKER_ID } from './start-job-worker';

export type KeyedJobOptions = {
  queue: string;
  key: string;
  leaseMs: number;
  correlationId: string;
  /** How long a caller waits for someone else's run before answering IN_PROGRESS (default 120 s). */
  waitMs?: number;
  pollMs?: number;
};

// Claims the key when no run holds it: a new row, or an existing one that is not running or whose lease lapsed.
const CLAIM_KEY = `INSERT INTO "Job" ("id", "queue", "key", "payload", "state", "attempts", "maxAttempts", "runAfter", "leaseToken", "leaseUntil", "lockedBy", "correlationId", "createdAt", "updatedAt")
  VALUES ($1, $2, $3, '{}'::jsonb, 'running', 1, 1, $4, $5, $6, $7, $8, $4, $4)
  ON CONFLICT ("queue", "key") DO UPDATE SET "state" = 'running', "attempts" = "Job"."attempts" + 1, "leaseToken" = EXCLUDED."leaseToken",
    "leaseUntil" = EXCLUDED."leaseUntil", "lockedBy" = EXCLUDED."lockedBy", "correlationId" = EXCLUDED."correlationId",
    "updatedAt" = EXCLUDED."updatedAt", "result" = NULL, "lastError" = NULL, "finishedAt" = NULL
  WHERE "Job"."state" <> 'running' OR "Job"."leaseUntil" < EXCLUDED."updatedAt"
  RETURNING "id"`;

/** @throws whatever `work` throws (the run is then marked dead, and waiting callers run it themselves); IN_PROGRESS after waitMs. */
export async function runKeyedJob<T>(
  deps: JobEngineDeps,
  options: KeyedJobOptions,
  work: (lease: JobLease) => Promise<T>,
): Promise<T> {
  const { db, clock } = deps;
  const deadline = clock().getTime() + (options.waitMs ?? 120_000);
  for (;;) {
    const jobId = await claimKey(deps, options);
    if (jobId) return runClaimed(deps, jobId, options, work);
    // Someone else's run is in flight: wait for it to end.
    for (;;) {
      if (clock().getTime() > deadline) {
        throw new AppError('IN_PROGRESS', 'The same run is still in progress; try again shortly', {
          retryAfterSeconds: 5,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
      const row = await db.job.findUnique({ where: { queue_key: { queue: options.queue, key: options.key } } });
      if (row?.state === 'completed') return row.result as T;
      if (row?.state === 'running' && row.leaseUntil && row.leaseUntil.getTime() >= clock().getTime()) continue;
      break; // the run failed, or its worker died: claim the key and do the work ourselves
    }
  }
}

async function claimKey(deps: JobEngineDeps, options: KeyedJobOptions): Promise<string | null> {
  const now = deps.clock();
  const rows = await deps.db.$queryRawUnsafe<Array<{ id: string }>>(
    CLAIM_KEY,
    `job_${randomBytes(12).toString('base64url')}`,
    options.queue,
    options.key,
    now,
    randomBytes(12).toString('base64url'),
    new Date(now.getTime() + options.leaseMs),
    WORKER_ID,
    options.correlationId,
  );
  return rows[0]?.id ?? null;
}

async function runClaimed<T>(
  deps: JobEngineDeps,
  jobId: string,
  options: KeyedJobOptions,
  work: (lease: JobLease) => Promise<T>,
): Promise<T> {
  const job = await deps.db.job.findUniqueOrThrow({ where: { id: jobId } });
  const lease = holdJobLease(deps, job, options.leaseMs);
  try {
    const result = await work(lease);
    await lease.complete(undefined, result);
    return result;
  } catch (error) {
    await deps.db.job.updateMany({
      where: { id: job.id, leaseToken: job.leaseToken, state: 'running' },
      data: {
        state: 'dead',
        finishedAt: deps.clock(),
        leaseToken: null,
        leaseUntil: null,
        lastError: error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}`.slice(0, 300) : 'Error',
      },
    });
    throw error;
  } finally {
    lease.stop();
  }
}
