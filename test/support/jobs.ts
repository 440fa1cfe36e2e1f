// Jobs as pg-boss keeps them (its documented table pgboss.job), for HTTP tests that check what the engine did or
// set up a job as a dead worker left it. Keyed jobs are found by their derived id (lib/background/keyed-job-id.ts).
import { randomUUID } from 'node:crypto';
import type { Db } from '@/lib/db';
import { keyedJobId } from '@/lib/background/keyed-job-id';

export type StoredJob = {
  id: string;
  name: string;
  state: string;
  retryCount: number;
  output: unknown;
  data: Record<string, unknown>;
  singletonKey: string | null;
};

const COLUMNS = `id::text AS id, name, state::text AS state, retry_count AS "retryCount", output, data, singleton_key AS "singletonKey"`;

export async function findKeyedJob(db: Db, queue: string, key: string): Promise<StoredJob | null> {
  const rows = await db.$queryRawUnsafe<StoredJob[]>(
    `SELECT ${COLUMNS} FROM pgboss.job WHERE name = $1 AND id = $2::uuid`,
    queue,
    keyedJobId(queue, key),
  );
  return rows[0] ?? null;
}

/** Every job of a queue, oldest first (optionally only those of one singleton key). */
export async function jobsOf(db: Db, queue: string, singletonKey?: string): Promise<StoredJob[]> {
  return db.$queryRawUnsafe<StoredJob[]>(
    `SELECT ${COLUMNS} FROM pgboss.job WHERE name = $1 AND ($2::text IS NULL OR singleton_key = $2) ORDER BY created_on, id`,
    queue,
    singletonKey ?? null,
  );
}

/**
 * A job claimed by a worker that is gone: active, its last heartbeat `heartbeatAgoSeconds` ago. With a heartbeat
 * older than `heartbeatSeconds` a supervising instance fails it (a retry, or for good once retryCount is retryLimit).
 */
export async function insertClaimedJob(
  db: Db,
  job: {
    queue: string;
    key?: string;
    data: Record<string, unknown>;
    retryCount: number;
    retryLimit: number;
    heartbeatSeconds: number;
    heartbeatAgoSeconds: number;
    deadLetter?: string;
  },
): Promise<string> {
  const id = job.key ? keyedJobId(job.queue, job.key) : randomUUID();
  await db.$executeRawUnsafe(
    `INSERT INTO pgboss.job (id, name, data, state, retry_limit, retry_count, started_on, heartbeat_on, heartbeat_seconds, dead_letter, policy)
     VALUES ($1::uuid, $2, $3::jsonb, 'active', $4, $5, now() - make_interval(secs => $6), now() - make_interval(secs => $6), $7, $8, 'standard')`,
    id,
    job.queue,
    JSON.stringify(job.data),
    job.retryLimit,
    job.retryCount,
    job.heartbeatAgoSeconds,
    job.heartbeatSeconds,
    job.deadLetter ?? null,
  );
  return id;
}
