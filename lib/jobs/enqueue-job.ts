// Puts work on a queue. With a key, the same work is queued at most once per queue (the key is unique): a second
// enqueue with that key is a no-op that returns null. Call it inside the transaction that records the work's
// domain row, so a job never exists without its subject or the other way round.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db';
import type { Tx } from './job';

export type EnqueueJobInput = {
  queue: string;
  key?: string;
  payload?: Record<string, unknown>;
  maxAttempts: number;
  /** Not claimable before this time (default: now). */
  runAfter?: Date;
  correlationId?: string;
};

const INSERT_JOB = `INSERT INTO "Job" ("id", "queue", "key", "payload", "state", "maxAttempts", "runAfter", "correlationId", "createdAt", "updatedAt")
  VALUES ($1, $2, $3, $4::jsonb, 'queued', $5, $6, $7, $8, $8)
  ON CONFLICT ("queue", "key") DO NOTHING RETURNING "id"`;

/** @returns the new job's id, or null when a job with this queue and key already exists. */
export async function enqueueJob(db: Db | Tx, input: EnqueueJobInput, now: Date): Promise<string | null> {
  const id = `job_${randomBytes(12).toString('base64url')}`;
  const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(
    INSERT_JOB,
    id,
    input.queue,
    input.key ?? null,
    JSON.stringify(input.payload ?? {}),
    input.maxAttempts,
    input.runAfter ?? now,
    input.correlationId ?? null,
    now,
  );
  return rows[0]?.id ?? null;
}
