// Verifies a second factor for a user with MFA on: a TOTP code (±1 step, never the same step twice) or an
// unused backup code (single use). Both consume the factor with a conditional update, so two racing requests
// with the same code cannot both pass.
import type { Db } from '../db';
import { unseal } from '../crypto/seal';
import { verifyTotp } from './totp';
import { hashBackupCode, looksLikeBackupCode } from './backup-codes';

export const mfaSealContext = (userId: string) => `mfa:${userId}`;

export async function verifySecondFactor(
  deps: { db: Db },
  user: { id: string; mfaSecretSealed: string | null; mfaLastTimeStep: bigint | null },
  code: string,
  settings: { sealKey: Buffer; now: Date },
): Promise<boolean> {
  const input = code.trim();
  if (looksLikeBackupCode(input)) {
    const { count } = await deps.db.backupCode.updateMany({
      where: { userId: user.id, codeHash: hashBackupCode(input), usedAt: null },
      data: { usedAt: settings.now },
    });
    return count === 1;
  }
  if (!user.mfaSecretSealed) return false;
  const secret = unseal(user.mfaSecretSealed, settings.sealKey, mfaSealContext(user.id));
  const result = await verifyTotp({ secret, token: input, now: settings.now, lastTimeStep: user.mfaLastTimeStep });
  if (!result.valid) return false;
  // Record the accepted step only if no later (or equal) step was recorded meanwhile: replay guard under races.
  const { count } = await deps.db.user.updateMany({
    where: { id: user.id, OR: [{ mfaLastTimeStep: null }, { mfaLastTimeStep: { lt: result.timeStep } }] },
    data: { mfaLastTimeStep: result.timeStep },
  });
  return count === 1;
}
