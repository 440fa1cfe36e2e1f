// POST /api/jobs/{id}/retry's domain: a failed job of the caller's clinic goes back to the queue (pg-boss retry),
// keeping its data and its attempts so far, audited (jobs.retry) in the same transaction. Another clinic's job, and
// an unknown id, are 404 (audited as refused); a job that has not failed is 409 NOT_EXECUTABLE, and so is a dead EMR
// pull or bulk export: their dead letter already closed the run or the export (failed, for the user to start again),
// so a retried job would find it closed and complete at once having done nothing.
import { fromPrisma, type PgBoss } from 'pg-boss';
import { z } from 'zod';
import { recordAudit } from '../audit/record-audit';
import type { Db } from '../db';
import { AppError } from '../errors';
import { EMR_PULL_QUEUE } from '../emr/pull-job';
import { BULK_EXPORT_QUEUE } from '../fhir/bulk-export/run-bulk-export-job';

export const JobParams = z.object({ id: z.uuid({ message: 'id must be a job id' }) });
export const RetriedJob = z.object({ id: z.string(), queue: z.string(), state: z.literal('retry') });

/** Queues whose failed job cannot run again, with what to do instead. */
const NOT_RETRYABLE: Record<string, string> = {
  [EMR_PULL_QUEUE]: 'This EMR pull stopped for good and cannot be run again; start a new pull',
  [BULK_EXPORT_QUEUE]: 'This bulk export stopped for good and cannot be run again; start a new export',
};

const FIND_JOB = `SELECT name, state::text AS state FROM pgboss.job WHERE id = $1::uuid AND data->>'clinicId' = $2 AND name NOT LIKE '%.dead'`;

export async function retryJob(
  deps: { db: Db; boss: PgBoss },
  input: { clinicId: string; orgId: string; userId: string; correlationId: string; id: string },
): Promise<z.infer<typeof RetriedJob>> {
  const audit = {
    userId: input.userId,
    orgId: input.orgId,
    clinicId: input.clinicId,
    correlationId: input.correlationId,
  };
  const [job] = await deps.db.$queryRawUnsafe<Array<{ name: string; state: string }>>(
    FIND_JOB,
    input.id,
    input.clinicId,
  );
  if (!job) {
    await recordAudit(deps.db, { ...audit, action: 'jobs.retry', outcome: 'refused', detail: { jobId: input.id } });
    throw new AppError('NOT_FOUND', 'No such job');
  }
  if (job.state !== 'failed') throw new AppError('NOT_EXECUTABLE', 'Only a failed job can be retried');
  const instead = NOT_RETRYABLE[job.name];
  if (instead) throw new AppError('NOT_EXECUTABLE', instead);
  await deps.db.$transaction(async (tx) => {
    await deps.boss.retry(job.name, input.id, { db: fromPrisma(tx) });
    await recordAudit(tx, {
      ...audit,
      action: 'jobs.retry',
      outcome: 'success',
      detail: { jobId: input.id, queue: job.name },
    });
  });
  return { id: input.id, queue: job.name, state: 'retry' };
}
