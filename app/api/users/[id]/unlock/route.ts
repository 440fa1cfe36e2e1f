// POST /api/users/{id}/unlock: end a user's sign-in lock (users:admin, step-up, audited).
import { route } from '@/lib/http/route';
import { unlockUserEndpoint } from '@/lib/users/endpoints';
import { unlockUser } from '@/lib/users/unlock-user';

export const POST = route(unlockUserEndpoint, ({ params, actor, principal, deps }) =>
  unlockUser(deps, { ...actor, scopes: principal.scopes }, params.id),
);
