// PATCH /api/emr-sync/connections/{id}: add or change the client id (needs-registration -> pending) or FHIR base.
import { route } from '@/lib/http/route';
import { updateConnectionEndpoint } from '@/lib/emr/endpoints';
import { updateConnection } from '@/lib/emr/update-connection';

export const PATCH = route(updateConnectionEndpoint, ({ params, body, actor, deps }) =>
  updateConnection(deps, { ...body, id: params.id, ...actor }),
);
