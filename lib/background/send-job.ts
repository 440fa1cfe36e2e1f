// Puts work on a queue, inside the caller's Prisma transaction when it passes one (the job exists exactly when the
// domain row that asks for it commits). With a key, the same work is queued once (keyed-job-id.ts).
import { fromPrisma } from 'pg-boss';
import type { Db, Prisma } from '../db';
import { requireBoss } from './boss';
import { keyedJobId } from './keyed-job-id';

export type SendJobOptions = {
  /** The same queue and key are queued once (while the job is kept): a repeat is a no-op returning null. */
  key?: string;
  /** Not worked before this time. */
  startAfter?: Date;
};

/** @returns the job's id, or null when a job with this key exists already. */
export async function sendJob(
  db: Db | Prisma.TransactionClient,
  queue: string,
  data: Record<string, unknown>,
  options: SendJobOptions = {},
): Promise<string | null> {
  const boss = await requireBoss();
  return boss.send(queue, data, {
    ...(options.key !== undefined && { id: keyedJobId(queue, options.key) }),
    ...(options.startAfter && { startAfter: options.startAfter }),
    db: fromPrisma(db),
  });
}
