// GET /api/webhook-endpoints/{id}: one endpoint. PATCH: change it (step-up). DELETE: remove it (204, step-up).
import { route } from '@/lib/http/route';
import { noContent } from '@/lib/http/responses';
import {
  deleteWebhookEndpointEndpoint,
  getWebhookEndpointEndpoint,
  updateWebhookEndpointEndpoint,
} from '@/lib/events/endpoints';
import { getWebhookEndpoint } from '@/lib/events/list-webhook-endpoints';
import { updateWebhookEndpoint } from '@/lib/events/update-webhook-endpoint';
import { deleteWebhookEndpoint } from '@/lib/events/delete-webhook-endpoint';

export const GET = route(getWebhookEndpointEndpoint, ({ params, actor, deps }) =>
  getWebhookEndpoint(deps, { clinicId: actor.clinicId, id: params.id }),
);

export const PATCH = route(updateWebhookEndpointEndpoint, ({ params, body, actor, deps }) =>
  updateWebhookEndpoint(deps, { ...body, ...actor, id: params.id }),
);

export const DELETE = route(deleteWebhookEndpointEndpoint, async ({ params, actor, deps }) => {
  await deleteWebhookEndpoint(deps, { ...actor, id: params.id });
  return noContent();
});
