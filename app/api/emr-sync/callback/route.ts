// GET /api/emr-sync/callback?code=&state=: finishes the browser authorization (integrations:read). JSON for API
// callers; a browser is redirected to /settings/integrations with the outcome.
import { route } from '@/lib/http/route';
import { callbackEndpoint } from '@/lib/emr/endpoints';
import { completeAuthorization } from '@/lib/emr/complete-authorization';
import { prefersHtml, withBrowserOutcome } from '@/lib/http/browser-outcome';

export const GET = route(callbackEndpoint, ({ query, actor, deps, correlationId, log, request }) =>
  withBrowserOutcome(
    { wantsHtml: prefersHtml(request.headers), appUrl: deps.config.appUrl, correlationId, log },
    () => completeAuthorization(deps, { ...query, ...actor }),
    (result) => ({ oauth: 'connected', connectionId: result.connectionId }),
  ),
);
