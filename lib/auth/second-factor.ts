// Verifies a second factor for a user with MFA on: a TOTP code (±1 step, never the same step twice) or an
// unused backup code (single use). Both consume the factor with a conditional update, so two racing requests
// with the same code cannot both pass.
import type { Db } from '../db';
import { unseal } from '../crypto/seal';
import { verifyTotp } from './totp';
import { hashBackupCode, looksLikeBackupCode } from './backup-codes';

export const mfaSealContext = (userId: string) => `mfa:${userId}`;

type SecondFactorUser = { id: string; mfaSecretSealed: string | null; mfaLastTimeStep: bigint | null };
type Settings = { sealKey: Buffer; now: Date };

export async function verifySecondFactor(
  deps: { db: Db },
  user: SecondFactorUser,
  code: string,
  settings: Settings,
): Promise<boolean> {
  return (await checkSecondFactor(deps, user, code, settings)) === 'accepted';
}

/**
 * verifySecondFactor with the reason of a refusal: 'reused' when the code is right but already spent (a TOTP
 * code of a step already accepted, a used backup code), so sign-in can say so instead of "not valid".
 */
export async function checkSecondFactor(
  deps: { db: Db },
  user: SecondFactorUser,
  code: string,
  settings: Settings,
): Promise<'accepted' | 'invalid' | 'reused'> {
  const input = code.trim();
  if (looksLikeBackupCode(input)) {
    const codeHash = hashBackupCode(input);
    const { count } = await deps.db.backupCode.updateMany({
      where: { userId: user.id, codeHash, usedAt: null },
      data: { usedAt: settings.now },
    });
    if (count === 1) return 'accepted';
    const spent = await deps.db.backupCode.count({ where: { userId: user.id, codeHash } });
    return spent > 0 ? 'reused' : 'invalid';
  }
  if (!user.mfaSecretSealed) return 'invalid';
  const secret = unseal(user.mfaSecretSealed, settings.sealKey, mfaSealContext(user.id));
  const result = await verifyTotp({ secret, token: input, now: settings.now, lastTimeStep: user.mfaLastTimeStep });
  if (!result.valid) return result.reason === 'replayed' ? 'reused' : 'invalid';
  // Record the accepted step only if no later (or equal) step was recorded meanwhile: replay guard under races.
  const { count } = await deps.db.user.updateMany({
    where: { id: user.id, OR: [{ mfaLastTimeStep: null }, { mfaLastTimeStep: { lt: result.timeStep } }] },
    data: { mfaLastTimeStep: result.timeStep },
  });
  return count === 1 ? 'accepted' : 'reused';
}
