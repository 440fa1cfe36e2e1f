// Fixed-window failure counters in RateLimitCounter, keyed by the caller (`sign-in-address:<address>`, …). Owns the
// counting only; what is counted under which key, and which limit applies, is the caller's choice.
//
// A slot is reserved BEFORE the guarded check and given back when the check did not end in a failure, so a
// burst of parallel attempts cannot get more checks through than the limit: each reservation is one conditional
// UPDATE (the count only moves while it is below the limit).
import type { Db } from '../db';
import { isUniqueViolation } from '../db/is-unique-violation';
import { AppError } from '../errors';

export type WindowLimit = { failures: number; windowSeconds: number };

export type WindowSlot = { key: string; windowStart: Date };

function rateLimited(windowStart: Date, limit: WindowLimit, now: Date): AppError {
  return new AppError('RATE_LIMITED', 'Too many failed attempts; try again later', {
    retryAfterSeconds: Math.max(
      1,
      Math.ceil((windowStart.getTime() + limit.windowSeconds * 1000 - now.getTime()) / 1000),
    ),
  });
}

/** Throws RATE_LIMITED when the current window has no failure slot left. Counts nothing. */
export async function assertWindowSlotLeft(db: Db, key: string, limit: WindowLimit, now: Date): Promise<void> {
  const row = await db.rateLimitCounter.findUnique({ where: { key } });
  if (row && row.windowStart.getTime() > now.getTime() - limit.windowSeconds * 1000 && row.count >= limit.failures) {
    throw rateLimited(row.windowStart, limit, now);
  }
}

/** Takes one of the window's failure slots; throws RATE_LIMITED (with Retry-After) when none is left. */
export async function reserveWindowSlot(db: Db, key: string, limit: WindowLimit, now: Date): Promise<WindowSlot> {
  const windowOpenedAfter = new Date(now.getTime() - limit.windowSeconds * 1000);
  // Three single-statement tries; a lost race (another request created or rolled the row) goes round again.
  for (let round = 0; round < 3; round++) {
    const inWindow = await db.rateLimitCounter.updateMany({
      where: { key, windowStart: { gt: windowOpenedAfter }, count: { lt: limit.failures } },
      data: { count: { increment: 1 } },
    });
    const current = await db.rateLimitCounter.findUnique({ where: { key } });
    if (inWindow.count === 1 && current) return { key, windowStart: current.windowStart };
    if (current && current.windowStart > windowOpenedAfter) {
      if (current.count >= limit.failures) throw rateLimited(current.windowStart, limit, now);
      continue; // a concurrent request created or rolled the row after our update: take a slot in it
    }
    if (current) {
      // The stored window has ended: open a new one, unless a concurrent request just did.
      const rolled = await db.rateLimitCounter.updateMany({
        where: { key, windowStart: { lte: windowOpenedAfter } },
        data: { windowStart: now, count: 1 },
      });
      if (rolled.count === 1) return { key, windowStart: now };
      continue;
    }
    try {
      await db.rateLimitCounter.create({ data: { key, windowStart: now, count: 1 } });
      return { key, windowStart: now };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new AppError('RATE_LIMITED', 'Too many attempts at once; try again shortly', { retryAfterSeconds: 1 });
}

/** Gives a reserved slot back (only in the window it was taken from): the check it guarded did not fail. */
export async function releaseWindowSlot(db: Db, slot: WindowSlot): Promise<void> {
  await db.rateLimitCounter.updateMany({
    where: { key: slot.key, windowStart: slot.windowStart, count: { gt: 0 } },
    data: { count: { decrement: 1 } },
  });
}
