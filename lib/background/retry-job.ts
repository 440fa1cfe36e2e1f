// POST /api/jobs/{id}/retry's domain: a failed job of the caller's clinic goes back to the queue (pg-boss retry),
// keeping its data and its attempts so far. Another clinic's job, and an unknown id, are 404; a job that has not
// failed is 409 NOT_EXECUTABLE.
import type { PgBoss } from 'pg-boss';
import { z } from 'zod';
import type { Db } from '../db';
import { AppError } from '../errors';

export const JobParams = z.object({ id: z.uuid({ message: 'id must be a job id' }) });
export const RetriedJob = z.object({ id: z.string(), queue: z.string(), state: z.literal('retry') });

const FIND_JOB = `SELECT name, state::text AS state FROM pgboss.job WHERE id = $1::uuid AND data->>'clinicId' = $2 AND name NOT LIKE '%.dead'`;

export async function retryJob(
  deps: { db: Db; boss: PgBoss },
  input: { clinicId: string; id: string },
): Promise<z.infer<typeof RetriedJob>> {
  const [job] = await deps.db.$queryRawUnsafe<Array<{ name: string; state: string }>>(
    FIND_JOB,
    input.id,
    input.clinicId,
  );
  if (!job) throw new AppError('NOT_FOUND', 'No such job');
  if (job.state !== 'failed') throw new AppError('NOT_EXECUTABLE', 'Only a failed job can be retried');
  await deps.boss.retry(job.name, input.id);
  return { id: input.id, queue: job.name, state: 'retry' };
}
