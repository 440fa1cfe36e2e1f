// A SMART backend pull as a job of the "emr-pull" queue (DECISIONS "Security findings of 2026-11-28", EMR pulls):
// an EHR's export may take hours (Epic and Oracle poll every 10 to 30 minutes), longer than any request. "Pull now"
// checks what it can at once (queueSmartBackendPull: the 501, 403 and 400 refusals), writes the run `queued` and its
// job in one transaction, and answers 202 with the run id; the screen follows GET /api/emr-sync/runs/{id}. A worker
// of any instance then runs the pull (pull-smart-backend.ts) on that run, watching the row for the user's cancel
// (POST /api/emr-sync/runs/{id}/cancel sets `cancelling`): the pull stops at its next wait or request, DELETEs the
// EHR's export and saves nothing. The job is not retried (a failed pull is the user's to start again, with the
// run's error in words); a worker that dies, or a pull past pg-boss's 24-hour ceiling, fails it through its dead
// letter, which records the run failed and drops what it had staged.
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db';
import { isAppError } from '../errors';
import type { FhirStore } from '../fhir/fhir-store';
import type { Logger } from '../log';
import type { Egress } from '../outbound/egress';
import { sendJob } from '../background/send-job';
import type { JobHandler } from '../background/job-handler';
import { checkSmartBackendPull, pullSmartBackend } from './pull-smart-backend';
import { OPEN_RUN_STATUSES, type RunProgress } from './sync-run-view';

export const EMR_PULL_QUEUE = 'emr-pull';
/** pg-boss's longest expiry (24 hours, its maximum): the job's whole life, export, download and commit. */
const JOB_EXPIRY_SECONDS = 24 * 60 * 60;
/** Of those 24 hours, the export may be polled for all but this much, left for the download and the commit. */
const DOWNLOAD_ALLOWANCE_MS = 60 * 60_000;
/** How often a running pull looks at its row for the user's cancel. */
const CANCEL_CHECK_MS = 2_000;

/** The job's data; `clinicId` also lists it under the clinic's GET /api/jobs. */
export type EmrPullJobData = {
  syncRunId: string;
  clinicId: string;
  connectionId: string;
  correlationId: string;
  since?: string;
};

type PullJobDeps = {
  db: Db;
  clock: Clock;
  config: Config;
  fhirStore: FhirStore;
  egress: Egress;
  log?: Logger;
  /** A simulated wait (tests: a 2-hour export on a simulated clock); default setTimeout. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** How often the row is read for a cancel; default CANCEL_CHECK_MS. */
  cancelCheckMs?: number;
};

export const QueuedPull = z.object({ syncRunId: z.string(), status: z.literal('queued') });
export type QueuedPull = z.infer<typeof QueuedPull>;

/** "Pull now" for a smart-backend connection: checked, recorded `queued` and queued; the work is the job's. */
export async function queueSmartBackendPull(
  deps: { db: Db; clock: Clock; config: Config },
  input: { connectionId: string; clinicId: string; correlationId: string; since?: string },
): Promise<QueuedPull> {
  const target = await checkSmartBackendPull(deps, input);
  const progress: RunProgress = { phase: 'starting', files: 0, filesDone: 0, resources: 0 };
  const syncRunId = await deps.db.$transaction(async (tx) => {
    const run = await tx.syncRun.create({
      data: {
        clinicId: input.clinicId,
        connectionId: target.connectionId,
        kind: 'smart-backend',
        status: 'queued',
        progress,
        correlationId: input.correlationId,
        startedAt: deps.clock(),
      },
      select: { id: true },
    });
    const data: EmrPullJobData = {
      syncRunId: run.id,
      clinicId: input.clinicId,
      connectionId: target.connectionId,
      correlationId: input.correlationId,
      ...(input.since && { since: input.since }),
    };
    await sendJob(tx, EMR_PULL_QUEUE, data, { key: run.id });
    return run.id;
  });
  return { syncRunId, status: 'queued' };
}

export function emrPullHandler(deps: PullJobDeps): JobHandler<EmrPullJobData> {
  return {
    queue: EMR_PULL_QUEUE,
    options: {
      retryLimit: 0,
      // A killed worker's pull is failed (its dead letter) within ~15 s instead of sitting `running` for a day.
      heartbeatSeconds: 10,
      expireInSeconds: JOB_EXPIRY_SECONDS,
    },
    pollingIntervalSeconds: 1,
    async run(job) {
      const run = await deps.db.syncRun.findUnique({ where: { id: job.data.syncRunId }, select: { status: true } });
      if (run?.status !== 'queued') return { pulled: false }; // cancelled before a worker took it
      const cancel = new AbortController();
      const watch = setInterval(() => {
        deps.db.syncRun
          .findUnique({ where: { id: job.data.syncRunId }, select: { status: true } })
          .then((row) => row?.status === 'cancelling' && cancel.abort())
          .catch(() => undefined); // a missed look is made again at the next tick
      }, deps.cancelCheckMs ?? CANCEL_CHECK_MS);
      try {
        const result = await pullSmartBackend(
          {
            ...deps,
            signal: AbortSignal.any([job.signal, cancel.signal]),
            cancelled: cancel.signal,
            maxWaitMs: JOB_EXPIRY_SECONDS * 1000 - DOWNLOAD_ALLOWANCE_MS,
          },
          {
            connectionId: job.data.connectionId,
            clinicId: job.data.clinicId,
            correlationId: job.data.correlationId,
            syncRunId: job.data.syncRunId,
            ...(job.data.since && { since: job.data.since }),
          },
        );
        return { pulled: true, upserted: result.upserted, deleted: result.deleted };
      } catch (error) {
        // Cancelled by the user: the run says so and the job is done, not failed.
        if (cancel.signal.aborted) return { pulled: false, cancelled: true };
        // Refused before the run started (the operator unbound the clinic, the key went away): the run says why.
        await deps.db.syncRun.updateMany({
          where: { id: job.data.syncRunId, status: 'queued' },
          data: {
            status: 'failed',
            counts: { error: isAppError(error) ? error.code : 'INTERNAL' },
            error: isAppError(error) ? error.message : 'The pull failed; nothing was saved',
            finishedAt: deps.clock(),
          },
        });
        throw error;
      } finally {
        clearInterval(watch);
      }
    },
    async onDead(job) {
      // The run, if the worker could not finish it: failed, with what it staged dropped. Idempotent.
      const { count } = await deps.db.syncRun.updateMany({
        where: { id: job.data.syncRunId, status: { in: [...OPEN_RUN_STATUSES] } },
        data: {
          status: 'failed',
          counts: { error: 'INTERNAL' },
          error: 'The pull stopped before it finished (its worker stopped, or it ran past 24 hours); nothing was saved',
          finishedAt: deps.clock(),
        },
      });
      await deps.db.$executeRawUnsafe('DELETE FROM "FhirStagedResource" WHERE "syncRunId" = $1', job.data.syncRunId);
      if (count) deps.log?.warn({ syncRunId: job.data.syncRunId }, 'emr pull given up');
    },
  };
}
