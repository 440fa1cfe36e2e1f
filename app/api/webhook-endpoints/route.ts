// GET /api/webhook-endpoints: the clinic's webhook endpoints. POST: register one (201, step-up; webhooks:admin).
import { route } from '@/lib/http/route';
import { createWebhookEndpointEndpoint, listWebhookEndpointsEndpoint } from '@/lib/events/endpoints';
import { listWebhookEndpoints } from '@/lib/events/list-webhook-endpoints';
import { createWebhookEndpoint } from '@/lib/events/create-webhook-endpoint';

export const GET = route(listWebhookEndpointsEndpoint, ({ actor, deps }) =>
  listWebhookEndpoints(deps, { clinicId: actor.clinicId }),
);

export const POST = route(createWebhookEndpointEndpoint, ({ body, actor, deps }) =>
  createWebhookEndpoint(deps, { ...body, ...actor }),
);
