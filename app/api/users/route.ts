// GET /api/users: the clinic's users. POST: invite one (201, step-up, audited). Scope users:admin.
import { route } from '@/lib/http/route';
import { inviteUserEndpoint, listUsersEndpoint } from '@/lib/users/endpoints';
import { listUsers } from '@/lib/users/list-users';
import { inviteUser } from '@/lib/users/invite-user';

export const GET = route(listUsersEndpoint, ({ actor, deps }) => listUsers(deps, { clinicId: actor.clinicId }));

export const POST = route(inviteUserEndpoint, ({ body, actor, principal, deps }) =>
  inviteUser(deps, { ...body, inviter: { ...actor, scopes: principal.scopes } }),
);
