// POST /api/auth/password: change your own password (current + new); ends your other sessions, keeps this one.
import { requireAuthSecret } from '@/lib/config';
import { route } from '@/lib/http/route';
import { json } from '@/lib/http/responses';
import { reissueSessionCookie } from '@/lib/http/reissue-session-cookie';
import { changePasswordEndpoint } from '@/lib/users/endpoints';
import { changePassword } from '@/lib/users/change-password';

export const POST = route(changePasswordEndpoint, async ({ request, body, actor, deps }) => {
  const { sessionVersion, ...answer } = await changePassword(deps, { ...body, who: actor });
  const cookie = await reissueSessionCookie(request, {
    appUrl: deps.config.appUrl,
    secret: requireAuthSecret(deps.config),
    sessionVersion,
    now: deps.clock(),
  });
  return json(answer, { headers: cookie ? { 'set-cookie': cookie } : {} });
});
