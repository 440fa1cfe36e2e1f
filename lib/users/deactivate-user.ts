// POST /api/users/{id}/deactivate: the user can no longer sign in, and every session of theirs stops at its next
// request (sessionVersion bump; authenticate.ts also refuses a deactivated row). Pending invitations die with
// it. Admins cannot deactivate themselves (a clinic must not lose its last admin by a slip). Step-up, audited.
import type { Clock } from '../clock';
import type { Db } from '../db';
import { AppError } from '../errors';
import { changeClinicUser, type Admin } from './change-clinic-user';

export function deactivateUser(deps: { db: Db; clock: Clock }, admin: Admin, userId: string) {
  return changeClinicUser(deps, admin, userId, {
    action: 'users.deactivate',
    check: (target) => {
      if (target.id === admin.userId)
        throw new AppError('UNPROCESSABLE', "You can't deactivate your own account; ask another admin");
    },
    apply: async (tx, id, now) => {
      await tx.user.updateMany({
        where: { id, deactivatedAt: null },
        data: { deactivatedAt: now, sessionVersion: { increment: 1 } },
      });
      await tx.userInvitation.updateMany({ where: { userId: id, usedAt: null }, data: { usedAt: now } });
    },
  });
}
