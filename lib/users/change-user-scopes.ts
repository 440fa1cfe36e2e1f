// PATCH /api/users/{id}: an admin changes what a user of their clinic may do after the invitation. The new scopes
// follow the invitation's rule (only scopes the admin holds: 403), and the user must not already hold a scope the
// admin lacks (403, changeClinicUser). Not one's own scopes (an admin could drop the clinic's last users:admin by a
// slip): 422. A removed scope stops at the user's next request (the wrapper re-reads the row); an added one comes
// with their next sign-in. Step-up, audited with the scopes before and after.
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Db } from '../db';
import { recordAudit } from '../audit/record-audit';
import { AppError } from '../errors';
import { changeClinicUser, scopesNotHeld, type Admin } from './change-clinic-user';
import { ScopeList } from './scope-list';

export const ChangeUserScopesBody = z.object({ scopes: ScopeList });
export type ChangeUserScopesBody = z.infer<typeof ChangeUserScopesBody>;

const ACTION = 'users.scopes.change';

export async function changeUserScopes(
  deps: { db: Db; clock: Clock },
  admin: Admin,
  userId: string,
  body: ChangeUserScopesBody,
) {
  const scopes = [...new Set(body.scopes)];
  const notHeld = scopesNotHeld(admin, scopes);
  if (notHeld.length > 0) {
    await recordAudit(deps.db, {
      action: ACTION,
      outcome: 'refused',
      correlationId: admin.correlationId,
      userId: admin.userId,
      orgId: admin.orgId,
      clinicId: admin.clinicId,
      detail: { targetUserId: userId, reason: 'scope-not-held', scopes: notHeld },
    });
    throw new AppError('FORBIDDEN', `You can't grant a scope you don't hold: ${notHeld.join(', ')}`);
  }
  let before: string[] = [];
  return changeClinicUser(deps, admin, userId, {
    action: ACTION,
    check: (target) => {
      if (target.id === admin.userId)
        throw new AppError('UNPROCESSABLE', "You can't change your own scopes; ask another admin");
      before = target.scopes;
    },
    apply: async (tx, id) => {
      // Conditional on the scopes the checks saw, so a concurrent change cannot slip a wider set past them.
      const { count } = await tx.user.updateMany({ where: { id, scopes: { equals: before } }, data: { scopes } });
      if (count !== 1) throw new AppError('UNPROCESSABLE', "The user's scopes changed meanwhile; reload and try again");
      return { before, after: scopes };
    },
  });
}
