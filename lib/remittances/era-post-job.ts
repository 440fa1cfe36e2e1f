// A big ERA posts in the background (issue #26): an era.received webhook whose interchange holds more than
// LARGE_ERA_CLAIMS CLPs is checked in the delivery's transaction as any other (422 refuses it, writing nothing) and,
// instead of posting there against the delivery's 15 s limit, queues this job in the same transaction: the delivery
// row and the job commit together (202, outcome `recorded`, reason ERA_QUEUED_REASON). The job posts through
// ingestRemittance, one transaction per 835, idempotent on (payer id, TRN02): a job retried after a crash mid-posting
// (that 835's transaction rolled back) posts only what is missing, exactly once, as a re-sent file would.
import type { Clock } from '../clock';
import type { Db, Prisma } from '../db';
import type { JobHandler } from '../background/job-handler';
import { sendJob } from '../background/send-job';
import { ingestRemittance } from './ingest-remittance';

export const ERA_POST_QUEUE = 'remittances.era-post';
/** More CLPs than this in one delivery post in the background. */
export const LARGE_ERA_CLAIMS = 500;
export const ERA_QUEUED_REASON = 'remittance queued for posting';
const MAX_ATTEMPTS = 5;

type JobData = { clinicId: string; x12: string; correlationId: string };

/** Queued once per delivery (keyed by receiver delivery id), in the delivery's transaction. */
export async function enqueueEraPosting(
  tx: Prisma.TransactionClient,
  input: JobData & { deliveryId: string },
): Promise<void> {
  const data: JobData = { clinicId: input.clinicId, x12: input.x12, correlationId: input.correlationId };
  await sendJob(tx, ERA_POST_QUEUE, data, { key: `${input.clinicId}:${input.deliveryId}` });
}

export function eraPostingHandler(deps: { db: Db; clock: Clock }): JobHandler<JobData> {
  return {
    queue: ERA_POST_QUEUE,
    // A posting of thousands of claims takes seconds; the expiry leaves room for a loaded database.
    options: { retryLimit: MAX_ATTEMPTS - 1, retryDelay: 5, retryBackoff: true, expireInSeconds: 15 * 60 },
    pollingIntervalSeconds: 1,
    async run(job) {
      const { clinicId, x12, correlationId } = job.data;
      const { remittances } = await ingestRemittance(deps, { clinicId, x12, source: 'webhook', correlationId });
      return { remittances: remittances.map((r) => ({ id: r.remittanceId, duplicate: r.duplicate })) };
    },
  };
}
