// POST /api/users/{id}/unlock: ends a sign-in lock early and clears the failure count (step-up, audited). The
// lock's own sessionVersion bump already ended the user's sessions; unlocking starts none.
import type { Clock } from '../clock';
import type { Db } from '../db';
import { changeClinicUser, type Admin } from './change-clinic-user';

export function unlockUser(deps: { db: Db; clock: Clock }, admin: Admin, userId: string) {
  return changeClinicUser(deps, admin, userId, {
    action: 'users.unlock',
    apply: async (tx, id, now) => {
      const before = await tx.user.findUniqueOrThrow({ where: { id }, select: { lockedUntil: true } });
      await tx.user.update({ where: { id }, data: { lockedUntil: null, failedSignIns: 0 } });
      return { wasLocked: !!before.lockedUntil && before.lockedUntil > now };
    },
  });
}
