// POST /api/auth/password: any signed-in user changes their own password with the current one. The check of the
// current password counts against the user's factor limit (5 failures per 15 min, as step-up: it is the same
// proof), and a success bumps sessionVersion, which ends every other session and step-up claim of the user; the
// edge re-issues this session's own token at the new version so the person changing it stays signed in.
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Db } from '../db';
import { AppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import { hashPassword, verifyPassword } from '../auth/password';
import { releaseFactorAttempt, reserveFactorAttempt } from '../auth/factor-rate-limit';
import { SIGN_IN_INPUT_LIMITS } from '../auth/rate-limit-policy';
import { NewPassword } from './new-password';

export const ChangePasswordBody = z
  .object({
    currentPassword: z
      .string()
      .min(1, { message: 'Enter your current password' })
      .max(SIGN_IN_INPUT_LIMITS.passwordChars),
    newPassword: NewPassword,
  })
  .refine((b) => b.currentPassword !== b.newPassword, {
    message: 'Choose a password different from the current one',
    path: ['newPassword'],
  });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const PasswordChanged = z.object({ ok: z.literal(true), otherSessionsEnded: z.literal(true) });

type Who = { userId: string; orgId: string; clinicId: string; correlationId: string };

/** @returns the user's new sessionVersion, for the edge to re-issue the caller's own session token. */
export async function changePassword(
  deps: { db: Db; clock: Clock },
  input: ChangePasswordBody & { who: Who },
): Promise<{ ok: true; otherSessionsEnded: true; sessionVersion: number }> {
  const { db } = deps;
  const { who } = input;
  const now = deps.clock();
  const audit = (outcome: 'success' | 'failure' | 'refused', reason?: string, tx: Pick<Db, 'auditLog'> = db) =>
    recordAudit(tx, {
      action: 'password.change',
      outcome,
      correlationId: who.correlationId,
      userId: who.userId,
      orgId: who.orgId,
      clinicId: who.clinicId,
      detail: reason ? { reason } : undefined,
    });
  const user = await db.user.findUnique({ where: { id: who.userId }, select: { passwordHash: true } });
  if (!user) throw new AppError('NOT_FOUND', 'No such user');
  const attempt = await reserveFactorAttempt(db, 'step-up', who.userId, now).catch(async (error) => {
    await audit('refused', 'rate-limited');
    throw error;
  });
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    await audit('failure', 'current-password-did-not-verify');
    const message = 'The current password is not correct';
    throw new AppError('VALIDATION_FAILED', message, { issues: [{ path: 'body.currentPassword', message }] });
  }
  await releaseFactorAttempt(db, attempt);
  const passwordHash = await hashPassword(input.newPassword);
  const updated = await db.$transaction(async (tx) => {
    const row = await tx.user.update({
      where: { id: who.userId },
      data: { passwordHash, sessionVersion: { increment: 1 } },
      select: { sessionVersion: true },
    });
    await audit('success', undefined, tx);
    return row;
  });
  return { ok: true, otherSessionsEnded: true, sessionVersion: updated.sessionVersion };
}
