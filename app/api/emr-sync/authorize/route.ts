// GET /api/emr-sync/authorize?connectionId=: 302 to the EMR's consent screen (staff session; browsers that hit an
// error are sent back to /settings/integrations with it).
import { route } from '@/lib/http/route';
import { redirect } from '@/lib/http/responses';
import { prefersHtml, withBrowserOutcome } from '@/lib/http/browser-outcome';
import { authorizeEndpoint } from '@/lib/emr/endpoints';
import { startAuthorization, type AuthorizationStarted } from '@/lib/emr/start-authorization';

export const GET = route(
  { ...authorizeEndpoint, render: ({ authorizeUrl }: AuthorizationStarted) => redirect(authorizeUrl) },
  ({ query, actor, deps, correlationId, log, request }) =>
    withBrowserOutcome(
      { wantsHtml: prefersHtml(request.headers), appUrl: deps.config.appUrl, correlationId, log },
      () =>
        startAuthorization(deps, { connectionId: query.connectionId, clinicId: actor.clinicId, userId: actor.userId }),
    ),
);
