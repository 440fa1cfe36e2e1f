// GET /api/auth/step-up: which step-up factors the signed-in account can use, and its MFA status, so a client
// (the step-up dialog, the security screen) offers only what will work. Secrets and counts only, no codes.
import { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db';
import { AppError } from '../errors';

export const StepUpFactors = z.object({
  factors: z.array(z.enum(['mfa', 'password', 'webauthn'])),
  defaultFactor: z.enum(['mfa', 'password']),
  mfaEnabled: z.boolean(),
  backupCodesRemaining: z.number().int(),
  passkeyCount: z.number().int(),
});

export async function describeStepUpFactors(
  deps: { db: Db; config: Config },
  input: { userId: string },
): Promise<z.infer<typeof StepUpFactors>> {
  const user = await deps.db.user.findUnique({
    where: { id: input.userId },
    select: { mfaEnabled: true, _count: { select: { passkeys: true, backupCodes: { where: { usedAt: null } } } } },
  });
  if (!user) throw new AppError('NOT_FOUND', 'No such user');
  const passkeyCount = user._count.passkeys;
  const factors: ('mfa' | 'password' | 'webauthn')[] = [];
  if (user.mfaEnabled) factors.push('mfa');
  if (passkeyCount > 0 && deps.config.webauthn) factors.push('webauthn');
  factors.push('password');
  return {
    factors,
    defaultFactor: user.mfaEnabled ? 'mfa' : 'password',
    mfaEnabled: user.mfaEnabled,
    backupCodesRemaining: user.mfaEnabled ? user._count.backupCodes : 0,
    passkeyCount,
  };
}
