// Claims the next job of a queue: the oldest queued job that is due, or a running job whose lease has
// lapsed (its worker died). One statement, FOR UPDATE SKIP LOCKED: two workers (in one process or on several
// instances) never claim the same job, and neither waits for the other. The claim counts an attempt and sets a
// fresh lease token, which every later write of this worker is conditioned on.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db';
import type { Job } from './job';

const CLAIM = `UPDATE "Job" SET "state" = 'running', "attempts" = "attempts" + 1, "leaseToken" = $1, "leaseUntil" = $2, "lockedBy" = $3, "updatedAt" = $4
  WHERE "id" = (
    SELECT "id" FROM "Job"
    WHERE "queue" = $5 AND (("state" = 'queued' AND "runAfter" <= $4) OR ("state" = 'running' AND "leaseUntil" < $4))
    ORDER BY "runAfter", "createdAt" LIMIT 1
    FOR UPDATE SKIP LOCKED)
  RETURNING "id"`;

export async function claimNextJob(
  db: Db,
  input: { queue: string; leaseMs: number; workerId: string; now: Date },
): Promise<Job | null> {
  const token = randomBytes(12).toString('base64url');
  const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(
    CLAIM,
    token,
    new Date(input.now.getTime() + input.leaseMs),
    input.workerId,
    input.now,
    input.queue,
  );
  if (!rows[0]) return null;
  return db.job.findUnique({ where: { id: rows[0].id } });
}
