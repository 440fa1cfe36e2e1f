// POST /api/users/{id}/reset-mfa: for a user who lost their authenticator. Drops the TOTP secret and the backup
// codes and ends the user's sessions (an MFA change always does); the user signs in with the password alone
// and enrols again. Passkeys stay: they are the user's own to remove. Step-up, audited.
import type { Clock } from '../clock';
import type { Db } from '../db';
import { changeClinicUser, type Admin } from './change-clinic-user';

export function resetUserMfa(deps: { db: Db; clock: Clock }, admin: Admin, userId: string) {
  return changeClinicUser(deps, admin, userId, {
    action: 'users.mfa.reset',
    apply: async (tx, id) => {
      const before = await tx.user.findUniqueOrThrow({ where: { id }, select: { mfaEnabled: true } });
      await tx.user.update({
        where: { id },
        data: { mfaEnabled: false, mfaSecretSealed: null, mfaLastTimeStep: null, sessionVersion: { increment: 1 } },
      });
      const codes = await tx.backupCode.deleteMany({ where: { userId: id } });
      return { wasEnabled: before.mfaEnabled, backupCodesRemoved: codes.count };
    },
  });
}
