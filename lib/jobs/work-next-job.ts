// Claims and works one job of a queue: runs its handler under a heartbeat lease, then completes it, retries it
// after a doubling backoff, or, once it has used maxAttempts claims, dead-letters it (state "dead", the reason
// in lastError, the queue's onDead recording the failure in the domain in the same transaction). A claim beyond
// maxAttempts (its workers kept dying mid-run) is dead-lettered without running again.
import type { Db } from '../db';
import { claimNextJob } from './claim-next-job';
import { holdJobLease } from './job-lease';
import { LeaseLost, type DeadCause, type Job, type JobEngineDeps, type JobHandler } from './job';

/** @returns false when the queue had nothing to claim. Never throws for a handler's failure. */
export async function workNextJob(deps: JobEngineDeps, handler: JobHandler, workerId: string): Promise<boolean> {
  const job = await claimNextJob(deps.db, {
    queue: handler.queue,
    leaseMs: handler.leaseMs,
    workerId,
    now: deps.clock(),
  });
  if (!job) return false;
  const log = deps.log?.child({ jobId: job.id, queue: job.queue, correlationId: job.correlationId ?? undefined });

  if (job.attempts > job.maxAttempts) {
    await buryJob(deps.db, handler, job, 'abandoned', deps.clock()).catch(ignoreLeaseLost);
    log?.warn({ attempts: job.maxAttempts }, 'job dead-lettered: its workers never finished it');
    return true;
  }

  const lease = holdJobLease(deps, job, handler.leaseMs);
  try {
    await handler.run(job, lease);
    if (!lease.completed) await lease.complete();
  } catch (error) {
    if (error instanceof LeaseLost) {
      log?.info('job lease lost: cancelled or taken over');
      return true;
    }
    log?.error({ attempt: job.attempts, err: String(error) }, 'job attempt failed');
    await retryOrBury(deps, handler, job, error).catch(ignoreLeaseLost);
  } finally {
    lease.stop();
  }
  return true;
}

async function retryOrBury(deps: JobEngineDeps, handler: JobHandler, job: Job, error: unknown): Promise<void> {
  const now = deps.clock();
  if (job.attempts >= job.maxAttempts) {
    await buryJob(deps.db, handler, job, 'failed', now, summarizeError(error));
    return;
  }
  const runAfter = new Date(now.getTime() + handler.backoffMs * 2 ** (job.attempts - 1));
  const { count } = await deps.db.job.updateMany({
    where: { id: job.id, leaseToken: job.leaseToken, state: 'running' },
    // The error's class and first line, for operators (list-jobs); never sent to a client.
    data: {
      state: 'queued',
      runAfter,
      leaseToken: null,
      leaseUntil: null,
      lockedBy: null,
      lastError: summarizeError(error),
    },
  });
  if (count !== 1) throw new LeaseLost(job.id);
}

/** Dead-letters a job this worker holds; the queue's onDead records the failure in the same transaction. */
async function buryJob(
  db: Db,
  handler: JobHandler,
  job: Job,
  cause: DeadCause,
  now: Date,
  lastError?: string,
): Promise<void> {
  const reason =
    cause === 'abandoned'
      ? `Its workers never finished it in ${job.maxAttempts} attempts`
      : 'It failed on every attempt';
  await db.$transaction(async (tx) => {
    const { count } = await tx.job.updateMany({
      where: { id: job.id, leaseToken: job.leaseToken, state: 'running' },
      data: {
        state: 'dead',
        finishedAt: now,
        leaseToken: null,
        leaseUntil: null,
        lastError: lastError ? `${reason}; last: ${lastError}` : reason,
      },
    });
    if (count !== 1) throw new LeaseLost(job.id);
    await handler.onDead?.(tx, job, cause);
  });
}

function summarizeError(error: unknown): string {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  return `${name}: ${message.split('\n')[0]}`.slice(0, 300);
}

function ignoreLeaseLost(error: unknown): void {
  if (!(error instanceof LeaseLost)) throw error;
}
