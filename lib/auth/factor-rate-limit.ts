// Per-user failure limit for factor checks (DECISIONS: step-up, MFA checks and WebAuthn attempts allow 5 failures
// per user per 15 min, then 429 RATE_LIMITED). A fixed window in RateLimitCounter under `<purpose>:<userId>`.
// Owns counting only; which checks count, and under which purpose, is the caller's choice.
//
// An attempt reserves a slot BEFORE the factor is verified and gives it back only on success, so a burst of
// parallel guesses cannot get more than 5 verifications through: each reservation is one conditional UPDATE.
import type { Db } from '../db';
import { AppError } from '../http/errors';
import { FACTOR_LIMIT } from './rate-limit-policy';

export type FactorPurpose = 'step-up' | 'mfa' | 'webauthn';

export type FactorAttempt = { key: string; windowStart: Date };

const keyOf = (purpose: FactorPurpose, userId: string) => `${purpose}:${userId}`;
const windowMs = FACTOR_LIMIT.windowSeconds * 1000;

function rateLimited(windowStart: Date, now: Date): AppError {
  return new AppError('RATE_LIMITED', 'Too many failed attempts; try again later', {
    retryAfterSeconds: Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000)),
  });
}

/** Throws RATE_LIMITED when the user has no failures left in the current window. Counts nothing. */
export async function assertFactorAttemptsLeft(db: Db, purpose: FactorPurpose, userId: string, now: Date): Promise<void> {
  const row = await db.rateLimitCounter.findUnique({ where: { key: keyOf(purpose, userId) } });
  if (row && row.windowStart.getTime() > now.getTime() - windowMs && row.count >= FACTOR_LIMIT.failures) {
    throw rateLimited(row.windowStart, now);
  }
}

/**
 * Takes one of the window's failure slots before a factor is checked; throws RATE_LIMITED when none is left.
 * Call `releaseFactorAttempt` when the factor verified, so only failures stay counted.
 */
export async function reserveFactorAttempt(db: Db, purpose: FactorPurpose, userId: string, now: Date): Promise<FactorAttempt> {
  const key = keyOf(purpose, userId);
  const windowOpenedAfter = new Date(now.getTime() - windowMs);
  // Three single-statement tries; a lost race (another request created or rolled the row) goes round again.
  for (let round = 0; round < 3; round++) {
    const inWindow = await db.rateLimitCounter.updateMany({
      where: { key, windowStart: { gt: windowOpenedAfter }, count: { lt: FACTOR_LIMIT.failures } },
      data: { count: { increment: 1 } },
    });
    const current = await db.rateLimitCounter.findUnique({ where: { key } });
    if (inWindow.count === 1 && current) return { key, windowStart: current.windowStart };
    if (current && current.windowStart > windowOpenedAfter) throw rateLimited(current.windowStart, now);
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
      if ((error as { code?: string }).code !== 'P2002') throw error;
    }
  }
  throw new AppError('RATE_LIMITED', 'Too many attempts at once; try again shortly', { retryAfterSeconds: 1 });
}

/** Gives back a reserved slot after the factor verified (only in the window it was taken from). */
export async function releaseFactorAttempt(db: Db, attempt: FactorAttempt): Promise<void> {
  await db.rateLimitCounter.updateMany({
    where: { key: attempt.key, windowStart: attempt.windowStart, count: { gt: 0 } },
    data: { count: { decrement: 1 } },
  });
}
