// Every RepeatableRead/Serializable transaction runs through here: PostgreSQL may abort one of two overlapping
// transactions with a serialization failure (SQLSTATE 40001) or a deadlock (40P01). The data stays right, but the
// caller must not see a 500: the whole transaction is retried, a bounded number of times, with jittered backoff.
import type { Db, Prisma } from '../db';

export type TransactionOptions = {
  isolationLevel: 'RepeatableRead' | 'Serializable';
  maxWait?: number;
  timeout?: number;
  /** Attempts in all, the first included. */
  attempts?: number;
};

const DEFAULT_ATTEMPTS = 5;

/** True for PostgreSQL's "try again" failures, however the driver adapter wraps them. */
export function isSerializationFailure(error: unknown): boolean {
  for (
    let e: unknown = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, originalCode, kind } = e as { code?: unknown; originalCode?: unknown; kind?: unknown };
    // P2034: Prisma's "write conflict or deadlock"; TransactionWriteConflict: the adapter's kind for 40001.
    if (
      code === 'P2034' ||
      code === '40001' ||
      code === '40P01' ||
      originalCode === '40001' ||
      originalCode === '40P01'
    )
      return true;
    if (kind === 'TransactionWriteConflict') return true;
    if (
      /\b(40001|40P01)\b|could not serialize access|deadlock detected/.test(
        String((e as { message?: unknown }).message ?? ''),
      )
    )
      return true;
  }
  return false;
}

export async function serializableTransaction<T>(
  db: Db,
  fn: (tx: Prisma.TransactionClient) => Promise<T>,
  options: TransactionOptions,
): Promise<T> {
  const { attempts = DEFAULT_ATTEMPTS, ...transactionOptions } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(fn, transactionOptions);
    } catch (error) {
      if (attempt >= attempts || !isSerializationFailure(error)) throw error;
      // 10-40 ms, doubling: overlapping runs spread out instead of colliding again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, (5 + Math.random() * 15) * 2 ** attempt));
    }
  }
}
