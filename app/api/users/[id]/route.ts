// PATCH /api/users/{id}: change a user's scopes (users:admin, step-up, audited; only scopes the admin holds).
import { route } from '@/lib/http/route';
import { changeUserScopesEndpoint } from '@/lib/users/endpoints';
import { changeUserScopes } from '@/lib/users/change-user-scopes';

export const PATCH = route(changeUserScopesEndpoint, ({ params, body, actor, principal, deps }) =>
  changeUserScopes(deps, { ...actor, scopes: principal.scopes }, params.id, body),
);
