// Reads a keyed job's state straight from pg-boss's job table, on the caller's Prisma client (a status route that
// says "queued" or "running" needs no engine of its own). pg-boss documents its tables for SQL access.
import type { Db } from '../db';
import { keyedJobId } from './keyed-job-id';

export type KeyedJobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';

/** @returns null when no such job is kept. */
export async function findKeyedJobState(db: Db, queue: string, key: string): Promise<KeyedJobState | null> {
  const rows = await db.$queryRawUnsafe<Array<{ state: KeyedJobState }>>(
    'SELECT state::text AS state FROM pgboss.job WHERE name = $1 AND id = $2::uuid',
    queue,
    keyedJobId(queue, key),
  );
  return rows[0]?.state ?? null;
}
