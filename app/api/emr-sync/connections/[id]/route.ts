// PATCH /api/emr-sync/connections/{id}: rename, or add or change the client id (needs-registration -> pending) or
// FHIR base. DELETE: remove the connection and its tokens (204, audited).
import { route } from '@/lib/http/route';
import { noContent } from '@/lib/http/responses';
import { deleteConnectionEndpoint, updateConnectionEndpoint } from '@/lib/emr/endpoints';
import { deleteConnection } from '@/lib/emr/delete-connection';
import { updateConnection } from '@/lib/emr/update-connection';

export const PATCH = route(updateConnectionEndpoint, ({ params, body, actor, deps }) =>
  updateConnection(deps, { ...body, id: params.id, ...actor }),
);

export const DELETE = route(deleteConnectionEndpoint, async ({ params, actor, deps }) => {
  await deleteConnection(deps, { ...actor, id: params.id });
  return noContent();
});
