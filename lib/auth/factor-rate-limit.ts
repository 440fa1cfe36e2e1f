// Per-user failure limit for factor checks (DECISIONS: step-up, MFA checks and WebAuthn attempts allow 5 failures
// per user per 15 min, then 429 RATE_LIMITED). A fixed window in RateLimitCounter under `<purpose>:<userId>`.
// Owns counting only; which checks count, and under which purpose, is the caller's choice.
//
// An attempt reserves a slot BEFORE the factor is verified and gives it back only on success, so a burst of
// parallel guesses cannot get more than 5 verifications through (the counting itself: window-counter.ts).
import type { Db } from '../db';
import { FACTOR_LIMIT } from './rate-limit-policy';
import { assertWindowSlotLeft, releaseWindowSlot, reserveWindowSlot, type WindowSlot } from './window-counter';

export type FactorPurpose = 'step-up' | 'mfa' | 'webauthn';

export type FactorAttempt = WindowSlot;

const keyOf = (purpose: FactorPurpose, userId: string) => `${purpose}:${userId}`;

/** Throws RATE_LIMITED when the user has no failures left in the current window. Counts nothing. */
export async function assertFactorAttemptsLeft(
  db: Db,
  purpose: FactorPurpose,
  userId: string,
  now: Date,
): Promise<void> {
  await assertWindowSlotLeft(db, keyOf(purpose, userId), FACTOR_LIMIT, now);
}

/**
 * Takes one of the window's failure slots before a factor is checked; throws RATE_LIMITED when none is left.
 * Call `releaseFactorAttempt` when the factor verified, so only failures stay counted.
 */
export async function reserveFactorAttempt(
  db: Db,
  purpose: FactorPurpose,
  userId: string,
  now: Date,
): Promise<FactorAttempt> {
  return reserveWindowSlot(db, keyOf(purpose, userId), FACTOR_LIMIT, now);
}

/** Gives back a reserved slot after the factor verified (only in the window it was taken from). */
export async function releaseFactorAttempt(db: Db, attempt: FactorAttempt): Promise<void> {
  await releaseWindowSlot(db, attempt);
}
