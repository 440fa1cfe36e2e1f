// POST /api/auth/mfa/backup-codes: an MFA user makes a new set of backup codes (after a step-up, which the wrapper
// checks). The old set, used or not, is void in the same transaction that stores the new hashes and the audit row,
// so a code written on the old sheet never works again. Sessions stay: the factor itself did not change.
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Db } from '../db';
import { AppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import { generateBackupCodes, hashBackupCode } from './backup-codes';
import type { Principal } from './principal';

export const BackupCodes = z.object({
  /** Shown once: only their hashes are stored. */
  backupCodes: z.array(z.string()),
});
export type BackupCodes = z.infer<typeof BackupCodes>;

const MFA_OFF = 'Two-step verification is off; turn it on to get backup codes';

export async function regenerateBackupCodes(
  deps: { db: Db; clock: Clock },
  input: { principal: Principal; correlationId: string },
): Promise<BackupCodes> {
  const { db } = deps;
  const { principal, correlationId } = input;
  const entry = {
    action: 'mfa.backup-codes.regenerate',
    correlationId,
    userId: principal.userId,
    orgId: principal.orgId,
    clinicId: principal.clinicId,
  };
  const backupCodes = generateBackupCodes();
  const regenerated = await db.$transaction(async (tx) => {
    // Row lock on the user: a concurrent MFA reset or disable cannot leave codes behind a user without MFA.
    const locked = await tx.$queryRaw<{ mfaEnabled: boolean }[]>`
      SELECT "mfaEnabled" FROM "User" WHERE "id" = ${principal.userId} FOR UPDATE`;
    if (!locked[0]?.mfaEnabled) return null;
    const removed = await tx.backupCode.deleteMany({ where: { userId: principal.userId } });
    await tx.backupCode.createMany({
      data: backupCodes.map((code) => ({ userId: principal.userId, codeHash: hashBackupCode(code) })),
    });
    await recordAudit(tx, {
      ...entry,
      outcome: 'success',
      detail: { previousCodes: removed.count, codes: backupCodes.length },
    });
    return true;
  });
  if (!regenerated) {
    await recordAudit(db, { ...entry, outcome: 'refused', detail: { reason: 'mfa-off' } });
    throw new AppError('UNPROCESSABLE', MFA_OFF);
  }
  return { backupCodes };
}
