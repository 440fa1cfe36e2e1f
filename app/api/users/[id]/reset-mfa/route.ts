// POST /api/users/{id}/reset-mfa: turn off a user's authenticator-app MFA (users:admin, step-up, audited).
import { route } from '@/lib/http/route';
import { resetUserMfaEndpoint } from '@/lib/users/endpoints';
import { resetUserMfa } from '@/lib/users/reset-user-mfa';

export const POST = route(resetUserMfaEndpoint, ({ params, actor, principal, deps }) =>
  resetUserMfa(deps, { ...actor, scopes: principal.scopes }, params.id),
);
