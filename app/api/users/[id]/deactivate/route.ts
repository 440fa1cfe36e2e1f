// POST /api/users/{id}/deactivate: a user can no longer sign in and their sessions end (users:admin, step-up).
import { route } from '@/lib/http/route';
import { deactivateUserEndpoint } from '@/lib/users/endpoints';
import { deactivateUser } from '@/lib/users/deactivate-user';

export const POST = route(deactivateUserEndpoint, ({ params, actor, principal, deps }) =>
  deactivateUser(deps, { ...actor, scopes: principal.scopes }, params.id),
);
