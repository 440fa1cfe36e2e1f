// MFA enrolment: proves the authenticator app holds the submitted secret (one valid code), then seals the secret
// at rest, stores 10 hashed backup codes and bumps sessionVersion, all in one transaction with its audit row.
// The bump ends every session of the user, the caller's included: whoever enabled MFA signs in again with it.
// The endpoint needs a step-up claim first (an MFA change), so a borrowed unlocked session cannot bind its own
// authenticator to the account.
import type { Deps } from '../deps';
import { requireSealKey } from '../config';
import { AppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import { seal } from '../crypto/seal';
import { generateBackupCodes, hashBackupCode } from './backup-codes';
import { releaseFactorAttempt, reserveFactorAttempt } from './factor-rate-limit';
import type { Principal } from './principal';
import { mfaSealContext } from './second-factor';
import { decodeBase32, verifyTotp } from './totp';

// RFC 4226 §4 requires at least 128 bits of shared secret (160 recommended, which GET /api/auth/mfa issues).
const MIN_SECRET_BYTES = 16;
const MAX_SECRET_BYTES = 64;

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { issues: [{ path: `body.${path}`, message }] });

export async function enableMfa(
  deps: Deps,
  input: { principal: Principal; secret?: string; token: string; correlationId: string },
): Promise<{ ok: true; backupCodes: string[] }> {
  const { db } = deps;
  const { principal, correlationId } = input;
  const now = deps.clock();
  const sealKey = requireSealKey(deps.config); // 503 before any read or write
  const audit = (outcome: 'success' | 'failure' | 'refused', reason?: string, tx: Pick<typeof db, 'auditLog'> = db) =>
    recordAudit(tx, {
      action: 'mfa.enable',
      outcome,
      correlationId,
      userId: principal.userId,
      orgId: principal.orgId,
      clinicId: principal.clinicId,
      detail: reason ? { reason } : undefined,
    });

  const user = await db.user.findUnique({ where: { id: principal.userId }, select: { id: true, mfaEnabled: true } });
  if (!user) throw new AppError('NOT_FOUND', 'No such user');
  if (user.mfaEnabled) {
    await audit('refused', 'already-enabled');
    throw invalid('action', 'MFA is already on; turn it off before setting up a new authenticator');
  }
  const secret = normalizeSecret(input.secret);
  const attempt = await reserveFactorAttempt(db, 'mfa', user.id, now).catch(async (error) => {
    await audit('refused', 'rate-limited');
    throw error;
  });
  const result = await verifyTotp({ secret, token: input.token.trim(), now, lastTimeStep: null });
  if (!result.valid) {
    await audit('failure', 'code-did-not-verify');
    throw invalid('token', 'The code does not match; check the time on your device and enter the current code');
  }
  await releaseFactorAttempt(db, attempt);

  const backupCodes = generateBackupCodes();
  await db.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: { id: user.id, mfaEnabled: false },
      // The enrolment code's step is stored, so the same code cannot then be replayed to sign in.
      data: {
        mfaEnabled: true,
        mfaSecretSealed: seal(secret, sealKey, mfaSealContext(user.id)),
        mfaLastTimeStep: result.timeStep,
        sessionVersion: { increment: 1 },
      },
    });
    if (count !== 1) throw invalid('action', 'MFA is already on; turn it off before setting up a new authenticator');
    await tx.backupCode.deleteMany({ where: { userId: user.id } });
    await tx.backupCode.createMany({
      data: backupCodes.map((code) => ({ userId: user.id, codeHash: hashBackupCode(code) })),
    });
    await audit('success', undefined, tx);
  });
  return { ok: true, backupCodes };
}

/** Base32 as authenticator apps show it (spaces, lower case, padding allowed), at least 128 bits. */
function normalizeSecret(secret: string | undefined): string {
  if (!secret?.trim()) throw invalid('secret', 'secret is required to turn MFA on; get one from GET /api/auth/mfa');
  const normalized = secret.replace(/[\s=]/g, '').toUpperCase();
  let bytes: Buffer;
  try {
    bytes = decodeBase32(normalized);
  } catch {
    throw invalid('secret', 'secret must be base32');
  }
  if (bytes.length < MIN_SECRET_BYTES || bytes.length > MAX_SECRET_BYTES)
    throw invalid('secret', 'secret must be 128 to 512 bits of base32');
  return normalized;
}
