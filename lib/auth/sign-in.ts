// Password sign-in with inline MFA, lockout and a per-address throttle. next-auth's credentials provider calls
// signIn(); lib/auth/next-auth.ts maps the AppError codes to 400/401/423/429/503 bodies. Every attempt on an
// account is audited.
//
// Attempts are reserved before they are checked (DECISIONS "Trust boundaries"). User.failedSignIns counts
// failures AND attempts still in flight: one conditional UPDATE takes a slot only while the count is below 5 and
// the account is not locked, so of any burst at most the remaining allowance reaches scrypt and the rest are
// refused 423 without a password check. A failure that leaves the count at 5 locks for 15 minutes and bumps
// sessionVersion (existing sessions end); a success clears the count only while no lock has been earned, so a
// right password inside a burst of wrong ones never undoes a lock. Attempts that end neither way (MFA code still
// needed, MFA unavailable) give their slot back.
//
// What a refusal says (SIGN_IN_NOTICES): a failure that leaves one attempt before the lock warns so; a right
// TOTP or backup code that was already spent says it was used; a deactivated account (DECISIONS "Staff app") is
// refused only after its password verified, so the notice tells nothing to someone without the password.
import { z } from 'zod';
import type { Db } from '../db';
import { AppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './password';
import { checkSecondFactor } from './second-factor';
import { SIGN_IN_ADDRESS_LIMIT, SIGN_IN_INPUT_LIMITS, SIGN_IN_LOCK } from './rate-limit-policy';
import { releaseWindowSlot, reserveWindowSlot } from './window-counter';
import { isScope, type Scope } from './scopes';

export type SignedInUser = {
  id: string;
  email: string;
  orgId: string;
  clinicId: string;
  clinicName: string;
  scopes: Scope[];
  sessionVersion: number;
};

/** Fields arrive untyped (next-auth also accepts a JSON body); `clientAddress` comes from client-address.ts. */
export type SignInInput = {
  email: unknown;
  password: unknown;
  mfaCode?: unknown;
  clientAddress: string;
  correlationId: string;
};

// Bounded before anything else: scrypt and the database never see an oversized or non-string value.
const SignInForm = z.object({
  email: z.string().max(SIGN_IN_INPUT_LIMITS.emailChars),
  password: z.string().max(SIGN_IN_INPUT_LIMITS.passwordChars),
  mfaCode: z.string().max(SIGN_IN_INPUT_LIMITS.mfaCodeChars).optional(),
});

/**
 * The form's fields and what each must be, as a validation issue says it. next-auth carries only a short string from
 * authorize() to its error URL, so the failing field names travel and lib/http/next-auth-route.ts rebuilds the
 * issues from this table: the same `issues` shape as every other 400, and no free text through the URL.
 */
const SIGN_IN_FIELD_RULES = {
  email: `Text of at most ${SIGN_IN_INPUT_LIMITS.emailChars} characters`,
  password: `Text of at most ${SIGN_IN_INPUT_LIMITS.passwordChars} characters`,
  mfaCode: `Text of at most ${SIGN_IN_INPUT_LIMITS.mfaCodeChars} characters`,
} as const;
type SignInField = keyof typeof SIGN_IN_FIELD_RULES;

export const isSignInField = (key: unknown): key is SignInField =>
  typeof key === 'string' && Object.hasOwn(SIGN_IN_FIELD_RULES, key);

export const signInFieldIssue = (field: SignInField) => ({
  path: `body.${field}`,
  message: SIGN_IN_FIELD_RULES[field],
});

const normalizeEmail = (email: string) => email.trim().toLowerCase();
const WRONG_PASSWORD = 'The e-mail or password is not correct';

const LAST_ATTEMPT = 'One more failed attempt locks the account for 15 minutes.';
const REUSED = 'That code was already used. Wait for the next code in your authenticator app, or use a backup code.';
/**
 * The sign-in refusals that say more than their code, by key (a plain wrong password or code has none: it reads
 * like an unknown e-mail, SIGN_IN_MESSAGES' INVALID_CREDENTIALS). next-auth carries only a short string from
 * authorize() to its error URL, so lib/auth/next-auth.ts sends the key and lib/http/next-auth-route.ts reads the
 * sentence back from here: one table, and no free text travels through the URL.
 */
export const SIGN_IN_NOTICES = {
  'last-attempt': `The e-mail, password or code is not correct. ${LAST_ATTEMPT}`,
  'mfa-code-reused': REUSED,
  'mfa-code-reused.last-attempt': `${REUSED} ${LAST_ATTEMPT}`,
  deactivated: 'This account has been deactivated. Ask your clinic admin if you need access again.',
} as const;
export type SignInNotice = keyof typeof SIGN_IN_NOTICES;

export const isSignInNotice = (key: string): key is SignInNotice => Object.hasOwn(SIGN_IN_NOTICES, key);

/** The notice key of a sign-in refusal (its message is one of SIGN_IN_NOTICES), else undefined. */
export function signInNoticeOf(message: string): SignInNotice | undefined {
  return (Object.keys(SIGN_IN_NOTICES) as SignInNotice[]).find((key) => SIGN_IN_NOTICES[key] === message);
}

type Deps = { db: Db; now: Date; sealKey?: Buffer };

export async function signIn(deps: Deps, input: SignInInput): Promise<SignedInUser> {
  const { db, now } = deps;
  const form = SignInForm.safeParse({
    email: input.email,
    password: input.password,
    mfaCode: input.mfaCode || undefined,
  });
  if (!form.success) {
    const fields = new Set(form.error.issues.map((issue) => issue.path[0]).filter(isSignInField));
    throw new AppError('VALIDATION_FAILED', 'The sign-in form is not valid', {
      cause: form.error,
      issues: [...fields].map(signInFieldIssue),
    });
  }
  const { password, mfaCode } = form.data;

  // Counted per address whatever the account, unknown e-mails included: this is what bounds spraying.
  const addressSlot = await reserveWindowSlot(db, `sign-in-address:${input.clientAddress}`, SIGN_IN_ADDRESS_LIMIT, now);
  const user = await db.user.findUnique({
    where: { email: normalizeEmail(form.data.email) },
    include: { clinic: { select: { name: true } } },
  });
  const audit = (outcome: 'success' | 'failure' | 'refused', reason?: string) =>
    recordAudit(db, {
      action: 'sign-in',
      outcome,
      correlationId: input.correlationId,
      userId: user?.id,
      orgId: user?.orgId,
      clinicId: user?.clinicId,
      detail: reason ? { reason } : undefined,
    });

  if (!user) {
    // Same work as a real check, so response time does not tell which e-mails exist.
    await verifyPassword(password, DUMMY_PASSWORD_HASH);
    await audit('failure', 'unknown-user');
    throw new AppError('INVALID_CREDENTIALS', WRONG_PASSWORD);
  }

  if (!(await reserveAccountAttempt(db, user.id, now))) {
    // No password work was done, so this refusal does not count against the address either.
    await releaseWindowSlot(db, addressSlot);
    await audit('refused', 'locked');
    throw locked(await lockEndsAt(db, user.id, now), now);
  }
  // From here the attempt holds an account slot: a verified failure keeps it, anything else must settle it.
  let settled = false;
  try {
    if (!(await verifyPassword(password, user.passwordHash))) {
      settled = true;
      return await failure(deps, user.id, 'bad-password', audit);
    }
    if (user.deactivatedAt) {
      // Not a failure of the password (it verified): the slot is given back in `finally`.
      await audit('refused', 'deactivated');
      throw new AppError('FORBIDDEN', SIGN_IN_NOTICES.deactivated);
    }
    if (user.mfaEnabled) {
      if (!mfaCode?.trim()) {
        await audit('refused', 'mfa-required');
        throw new AppError('MFA_REQUIRED', 'Enter the code from your authenticator app or a backup code');
      }
      if (!deps.sealKey) throw new AppError('DEPENDENCY_UNAVAILABLE', 'Sign-in is not available');
      const checked = await checkSecondFactor(deps, user, mfaCode, { sealKey: deps.sealKey, now });
      if (checked !== 'accepted') {
        settled = true;
        return await failure(deps, user.id, checked === 'reused' ? 'mfa-code-reused' : 'bad-mfa-code', audit);
      }
    }
    settled = true;
    // Clears the count only while no lock was earned meanwhile (by a failure finishing inside the same burst).
    const cleared = await db.user.updateMany({
      where: { id: user.id, OR: [{ lockedUntil: null }, { lockedUntil: { lte: now } }] },
      data: { failedSignIns: 0, lockedUntil: null },
    });
    if (cleared.count === 0) {
      await audit('refused', 'locked');
      throw locked(await lockEndsAt(db, user.id, now), now);
    }
  } finally {
    if (!settled) {
      await releaseAccountAttempt(db, user.id);
      await releaseWindowSlot(db, addressSlot);
    }
  }
  // Only failures count against the address.
  await releaseWindowSlot(db, addressSlot);
  await audit('success');
  return {
    id: user.id,
    email: user.email,
    orgId: user.orgId,
    clinicId: user.clinicId,
    clinicName: user.clinic.name,
    scopes: user.scopes.filter(isScope),
    sessionVersion: user.sessionVersion,
  };
}

/** One conditional UPDATE: takes an attempt slot while fewer than 5 are counted and the account is not locked. */
async function reserveAccountAttempt(db: Db, userId: string, now: Date): Promise<boolean> {
  const { count } = await db.user.updateMany({
    where: {
      id: userId,
      failedSignIns: { lt: SIGN_IN_LOCK.failures },
      OR: [{ lockedUntil: null }, { lockedUntil: { lte: now } }],
    },
    data: { failedSignIns: { increment: 1 } },
  });
  return count === 1;
}

async function releaseAccountAttempt(db: Db, userId: string): Promise<void> {
  await db.user.updateMany({
    where: { id: userId, failedSignIns: { gt: 0 } },
    data: { failedSignIns: { decrement: 1 } },
  });
}

/**
 * The attempt's slot stays counted as a failure. When the count has reached 5 this failure earns the lock (once:
 * the conditional update matches only while no lock is in force). Always throws.
 */
async function failure(
  deps: Deps,
  userId: string,
  reason: 'bad-password' | 'bad-mfa-code' | 'mfa-code-reused',
  audit: (outcome: 'failure', reason: string) => Promise<void>,
): Promise<never> {
  await audit('failure', reason);
  const lockedUntil = new Date(deps.now.getTime() + SIGN_IN_LOCK.lockSeconds * 1000);
  const { count } = await deps.db.user.updateMany({
    where: {
      id: userId,
      failedSignIns: { gte: SIGN_IN_LOCK.failures },
      OR: [{ lockedUntil: null }, { lockedUntil: { lte: deps.now } }],
    },
    data: { lockedUntil, failedSignIns: 0, sessionVersion: { increment: 1 } },
  });
  if (count === 1) throw locked(lockedUntil, deps.now);
  // Counted failures (in-flight attempts included) one short of the lock: the next failure locks.
  const row = await deps.db.user.findUnique({ where: { id: userId }, select: { failedSignIns: true } });
  const lastAttempt = row?.failedSignIns === SIGN_IN_LOCK.failures - 1;
  if (reason === 'mfa-code-reused')
    throw new AppError('INVALID_CREDENTIALS', SIGN_IN_NOTICES[lastAttempt ? 'mfa-code-reused.last-attempt' : reason]);
  if (lastAttempt) throw new AppError('INVALID_CREDENTIALS', SIGN_IN_NOTICES['last-attempt']);
  throw new AppError(
    'INVALID_CREDENTIALS',
    reason === 'bad-password' ? WRONG_PASSWORD : 'The authentication code is not valid',
  );
}

/**
 * When the lock in force ends. A refusal can also come while the last slots are still being checked, before any
 * lock exists: the burst is about to lock the account, so the full lock time is the honest estimate.
 */
async function lockEndsAt(db: Db, userId: string, now: Date): Promise<Date> {
  const row = await db.user.findUnique({ where: { id: userId }, select: { lockedUntil: true } });
  return row?.lockedUntil && row.lockedUntil > now
    ? row.lockedUntil
    : new Date(now.getTime() + SIGN_IN_LOCK.lockSeconds * 1000);
}

function locked(until: Date, now: Date): AppError {
  return new AppError('ACCOUNT_LOCKED', 'Too many failed sign-in attempts; the account is locked for a while', {
    retryAfterSeconds: Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)),
  });
}
