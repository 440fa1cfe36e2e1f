// GET /api/users: the caller's clinic's users, newest first, at most 100 (like every list). Clinic-scoped by the
// session only: another clinic's users are never read.
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Db } from '../db';
import { findPendingInvitations, toUserView, USER_VIEW_SELECT, UserView } from './user-view';

export const UserList = z.object({ users: z.array(UserView) });
export type UserList = z.infer<typeof UserList>;

export const LIST_LIMIT = 100;

export async function listUsers(deps: { db: Db; clock: Clock }, input: { clinicId: string }): Promise<UserList> {
  const now = deps.clock();
  const rows = await deps.db.user.findMany({
    where: { clinicId: input.clinicId },
    select: USER_VIEW_SELECT,
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: LIST_LIMIT,
  });
  const pending = await findPendingInvitations(
    deps.db,
    rows.map((r) => r.id),
    now,
  );
  return { users: rows.map((row) => toUserView(row, now, pending.has(row.id))) };
}
