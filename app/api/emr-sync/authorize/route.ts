// GET /api/emr-sync/authorize?connectionId=: 302 to the EMR's consent screen (staff session; browsers that hit an
// error are sent back to /settings/integrations with it).
import { route } from '@/lib/http/route';
import { authorizeEndpoint } from '@/lib/emr/endpoints';
import { startAuthorization } from '@/lib/emr/start-authorization';
import { prefersHtml, withBrowserOutcome } from '@/lib/emr/browser-outcome';

export const GET = route(authorizeEndpoint, ({ query, principal, deps, correlationId, log, request }) =>
  withBrowserOutcome({ wantsHtml: prefersHtml(request.headers), appUrl: deps.config.appUrl, correlationId, log },
    () => startAuthorization(deps, { connectionId: query.connectionId, clinicId: principal.clinicId, userId: principal.userId }),
    () => ({})));
