// A big ERA posts in the background (issue #26): an era.received webhook whose interchange holds more than
// LARGE_ERA_CLAIMS CLPs is checked in the delivery's transaction as any other (422 refuses it, writing nothing) and,
// instead of posting there against the delivery's 15 s limit, queues this job in the same transaction: the delivery
// row, the job and its EraPosting record commit together (202, outcome `recorded`, reason ERA_QUEUED_REASON). The job
// posts through ingestRemittance, the interchange in one transaction, idempotent on (payer id, TRN02): a job retried
// after a crash mid-posting (the transaction rolled back, nothing of it posted) posts it whole, exactly once, as a
// re-sent file would. The job writes its EraPosting record (state, claims posted, why an attempt failed) outside the
// posting transaction, so the remittance screen sees it move while it posts (GET /api/remittances/postings); the
// claims it counts are committed with the last 835.
import type { Clock } from '../clock';
import type { Db, Prisma } from '../db';
import { isAppError } from '../errors';
import { JobFailure, type JobHandler } from '../background/job-handler';
import { keyedJobId } from '../background/keyed-job-id';
import { sendJob } from '../background/send-job';
import { ingestRemittance } from './ingest-remittance';

export const ERA_POST_QUEUE = 'remittances.era-post';
/** More CLPs than this in one delivery post in the background. */
export const LARGE_ERA_CLAIMS = 500;
export const ERA_QUEUED_REASON = 'remittance queued for posting';
const MAX_ATTEMPTS = 5;

/** `postingId` names the EraPosting record; jobs queued before records existed have none and record nothing. */
type JobData = { clinicId: string; x12: string; correlationId: string; postingId?: string };

/**
 * Queued once per delivery (keyed by receiver delivery id), in the delivery's transaction, with the record the clinic
 * reads; the record's id is the job's.
 */
export async function enqueueEraPosting(
  tx: Prisma.TransactionClient,
  input: { clinicId: string; x12: string; correlationId: string; deliveryId: string; claimsTotal: number; now: Date },
): Promise<void> {
  const key = `${input.clinicId}:${input.deliveryId}`;
  const postingId = keyedJobId(ERA_POST_QUEUE, key);
  const data: JobData = { clinicId: input.clinicId, x12: input.x12, correlationId: input.correlationId, postingId };
  // null: this delivery's job (and so its record) exists already.
  if ((await sendJob(tx, ERA_POST_QUEUE, data, { key })) === null) return;
  await tx.eraPosting.create({
    data: {
      id: postingId,
      clinicId: input.clinicId,
      claimsTotal: input.claimsTotal,
      correlationId: input.correlationId,
      queuedAt: input.now,
    },
  });
}

export function eraPostingHandler(deps: { db: Db; clock: Clock }): JobHandler<JobData> {
  return {
    queue: ERA_POST_QUEUE,
    // A posting of thousands of claims takes seconds; the expiry leaves room for a loaded database. The heartbeat
    // lets another worker take over a killed worker's posting within seconds instead of at the expiry.
    options: {
      retryLimit: MAX_ATTEMPTS - 1,
      retryDelay: 5,
      retryBackoff: true,
      heartbeatSeconds: 10,
      expireInSeconds: 15 * 60,
    },
    pollingIntervalSeconds: 1,
    async run(job) {
      const { clinicId, x12, correlationId, postingId } = job.data;
      // updateMany: a job without a record (queued before records existed) writes nothing.
      const record = (data: Prisma.EraPostingUpdateManyMutationInput) =>
        postingId ? deps.db.eraPosting.updateMany({ where: { id: postingId }, data }) : undefined;
      const attempts = job.retryCount + 1;
      // An operator's retry of a posting that had stopped (POST /api/jobs/{id}/retry) starts it over too.
      await record({
        state: 'posting',
        attempts,
        claimsPosted: 0,
        failureReason: null,
        willRetry: false,
        finishedAt: null,
      });
      try {
        const { remittances } = await ingestRemittance(deps, {
          clinicId,
          x12,
          source: 'webhook',
          correlationId,
          onProgress: async ({ claimsPosted }) => {
            await record({ claimsPosted });
          },
        });
        await record({
          state: 'posted',
          remittanceIds: remittances.map((r) => r.remittanceId),
          finishedAt: deps.clock(),
        });
        return { remittances: remittances.map((r) => ({ id: r.remittanceId, duplicate: r.duplicate })) };
      } catch (error) {
        const willRetry = attempts < MAX_ATTEMPTS;
        await record({
          state: 'failed',
          failureReason: failureInWords(error),
          willRetry,
          ...(!willRetry && { finishedAt: deps.clock() }),
        });
        throw error;
      }
    },
    // The last attempt ended without saying why (its worker died, or it ran past its expiry): the record says so.
    async onDead(job) {
      const { postingId } = job.data;
      if (!postingId) return;
      await deps.db.eraPosting.updateMany({
        where: { id: postingId, state: { in: ['queued', 'posting'] } },
        data: {
          state: 'failed',
          failureReason: 'It stopped before it finished (its worker stopped, or it ran out of time)',
          finishedAt: deps.clock(),
        },
      });
      await deps.db.eraPosting.updateMany({
        where: { id: postingId, state: 'failed', willRetry: true },
        data: { willRetry: false, finishedAt: deps.clock() },
      });
    },
  };
}

/** What the screen may show: our own errors' messages are written for people; anything else stays in the log. */
function failureInWords(error: unknown): string {
  if (isAppError(error) || error instanceof JobFailure) return error.message;
  return 'It failed with an unexpected error (the server log has the details under this job id)';
}
