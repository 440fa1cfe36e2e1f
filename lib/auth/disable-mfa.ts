// Turning MFA off: needs a recent step-up claim AND a valid code (TOTP or an unused backup code), then drops the
// sealed secret and the backup codes and bumps sessionVersion, in one transaction with its audit row. The claim is
// the wrapper's to check (postMfa's stepUp), before this runs and so before any code is spent.
import type { Deps } from '../deps';
import { requireSealKey } from '../config';
import { AppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import { releaseFactorAttempt, reserveFactorAttempt } from './factor-rate-limit';
import type { Principal } from './principal';
import { verifySecondFactor } from './second-factor';

export async function disableMfa(
  deps: Deps,
  input: { principal: Principal; token: string; correlationId: string },
): Promise<{ ok: true }> {
  const { db } = deps;
  const { principal, correlationId } = input;
  const now = deps.clock();
  const sealKey = requireSealKey(deps.config);
  const audit = (outcome: 'success' | 'failure' | 'refused', reason?: string, tx: Pick<typeof db, 'auditLog'> = db) =>
    recordAudit(tx, {
      action: 'mfa.disable',
      outcome,
      correlationId,
      userId: principal.userId,
      orgId: principal.orgId,
      clinicId: principal.clinicId,
      detail: reason ? { reason } : undefined,
    });

  const user = await db.user.findUnique({
    where: { id: principal.userId },
    select: { id: true, mfaEnabled: true, mfaSecretSealed: true, mfaLastTimeStep: true },
  });
  if (!user) throw new AppError('NOT_FOUND', 'No such user');
  if (!user.mfaEnabled) {
    await audit('refused', 'not-enabled');
    throw new AppError('VALIDATION_FAILED', 'MFA is not on', {
      issues: [{ path: 'body.action', message: 'MFA is not on' }],
    });
  }
  const attempt = await reserveFactorAttempt(db, 'mfa', user.id, now).catch(async (error) => {
    await audit('refused', 'rate-limited');
    throw error;
  });
  if (!(await verifySecondFactor(deps, user, input.token, { sealKey, now }))) {
    await audit('failure', 'code-did-not-verify');
    const message = 'The code is not valid or was already used; enter a new code or a backup code';
    throw new AppError('VALIDATION_FAILED', message, { issues: [{ path: 'body.token', message }] });
  }
  await releaseFactorAttempt(db, attempt);
  await db.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: { id: user.id, mfaEnabled: true },
      data: { mfaEnabled: false, mfaSecretSealed: null, mfaLastTimeStep: null, sessionVersion: { increment: 1 } },
    });
    if (count !== 1)
      throw new AppError('VALIDATION_FAILED', 'MFA is not on', {
        issues: [{ path: 'body.action', message: 'MFA is not on' }],
      });
    await tx.backupCode.deleteMany({ where: { userId: user.id } });
    await audit('success', undefined, tx);
  });
  return { ok: true };
}
