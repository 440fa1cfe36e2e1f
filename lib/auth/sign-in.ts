// Password sign-in with inline MFA and lockout (DECISIONS: 5 consecutive failures lock for 15 minutes; the
// lock bumps sessionVersion so existing sessions end). Every attempt is audited. next-auth's credentials
// provider calls signIn(); the route maps SignInRefusal codes to 401/423 bodies.
import type { Db } from '../db';
import { AppError } from '../http/errors';
import { recordAudit } from '../audit/record-audit';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './password';
import { verifySecondFactor } from './second-factor';
import { SIGN_IN_LOCK } from './rate-limit-policy';
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

export type SignInInput = { email: string; password: string; mfaCode?: string; correlationId: string };

const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function signIn(deps: { db: Db; now: Date; sealKey?: Buffer }, input: SignInInput): Promise<SignedInUser> {
  const { db, now } = deps;
  const email = normalizeEmail(input.email);
  const user = await db.user.findUnique({ where: { email }, include: { clinic: { select: { name: true } } } });
  const audit = (outcome: 'success' | 'failure' | 'refused', reason?: string) =>
    recordAudit(db, {
      action: 'sign-in', outcome, correlationId: input.correlationId,
      userId: user?.id, orgId: user?.orgId, clinicId: user?.clinicId, detail: reason ? { reason } : undefined,
    });

  if (!user) {
    // Same work as a real check, so response time does not tell which e-mails exist.
    await verifyPassword(input.password, DUMMY_PASSWORD_HASH);
    await audit('failure', 'unknown-user');
    throw new AppError('INVALID_CREDENTIALS', 'The e-mail or password is not correct');
  }
  if (user.lockedUntil && user.lockedUntil > now) {
    await audit('refused', 'locked');
    throw locked(user.lockedUntil, now);
  }
  if (!(await verifyPassword(input.password, user.passwordHash))) {
    return failure(deps, user.id, 'bad-password', audit, 'The e-mail or password is not correct');
  }
  if (user.mfaEnabled) {
    if (!input.mfaCode?.trim()) {
      await audit('refused', 'mfa-required');
      throw new AppError('MFA_REQUIRED', 'Enter the code from your authenticator app or a backup code');
    }
    if (!deps.sealKey) throw new AppError('DEPENDENCY_UNAVAILABLE', 'Sign-in is not available');
    const ok = await verifySecondFactor(deps, user, input.mfaCode, { sealKey: deps.sealKey, now });
    if (!ok) return failure(deps, user.id, 'bad-mfa-code', audit, 'The authentication code is not valid');
  }
  await db.user.update({ where: { id: user.id }, data: { failedSignIns: 0, lockedUntil: null } });
  await audit('success');
  return {
    id: user.id, email: user.email, orgId: user.orgId, clinicId: user.clinicId, clinicName: user.clinic.name,
    scopes: user.scopes.filter(isScope), sessionVersion: user.sessionVersion,
  };
}

async function failure(
  deps: { db: Db; now: Date },
  userId: string,
  reason: string,
  audit: (outcome: 'failure', reason: string) => Promise<void>,
  message: string,
): Promise<never> {
  const { failedSignIns } = await deps.db.user.update({
    where: { id: userId },
    data: { failedSignIns: { increment: 1 } },
    select: { failedSignIns: true },
  });
  await audit('failure', reason);
  if (failedSignIns >= SIGN_IN_LOCK.failures) {
    const lockedUntil = new Date(deps.now.getTime() + SIGN_IN_LOCK.lockSeconds * 1000);
    await deps.db.user.updateMany({
      where: { id: userId, failedSignIns: { gte: SIGN_IN_LOCK.failures } },
      data: { lockedUntil, failedSignIns: 0, sessionVersion: { increment: 1 } },
    });
    throw locked(lockedUntil, deps.now);
  }
  throw new AppError('INVALID_CREDENTIALS', message);
}

function locked(until: Date, now: Date): AppError {
  return new AppError('ACCOUNT_LOCKED', 'Too many failed sign-in attempts; the account is locked for a while', {
    retryAfterSeconds: Math.ceil((until.getTime() - now.getTime()) / 1000),
  });
}
