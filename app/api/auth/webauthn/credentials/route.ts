// GET /api/auth/webauthn/credentials: the caller's passkeys, without key material.
import { route } from '@/lib/http/route';
import { getPasskeys } from '@/lib/auth/endpoints';
import { listPasskeys } from '@/lib/auth/list-passkeys';

export const GET = route(getPasskeys, ({ principal, deps }) => listPasskeys(deps, { userId: principal.userId }));
