// The OpenAPI 3.1 `webhooks` entry for events out: what a registered endpoint receives (DECISIONS "Events out"),
// so a client generator and /docs describe the envelope and headers next to the routes that register endpoints.
import { EVENT_TYPES } from './event-types';

const header = (name: string, description: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
});

export const EVENT_WEBHOOK = {
  post: {
    summary: 'An event, POSTed to each enabled endpoint of the clinic subscribed to its type',
    description:
      'Verify the raw body before parsing it (docs/webhooks.md). 2xx within 10 s is delivered; anything else is ' +
      'retried for 3 days (10 s, 1 min, 5 min, 30 min, 2 h, 6 h, then every 12 h, ±10 %), then the endpoint is ' +
      'disabled; 410 disables it at once. In order per endpoint and object; at least once: dedupe on X-Svc-Delivery.',
    tags: ['webhook-endpoints'],
    parameters: [
      header(
        'X-Svc-Signature',
        'sha256=<hex HMAC-SHA256 of the raw body under the whsec_ secret>, comma-separated during a rotation',
      ),
      header('X-Svc-Delivery', 'The delivery id, stable across retries'),
      header('x-correlation-id', 'The request or job that made the change'),
      header('webhook-id', 'Standard Webhooks: the event id'),
      header('webhook-timestamp', 'Standard Webhooks: Unix seconds of this attempt'),
      header(
        'webhook-signature',
        'Standard Webhooks: v1,<base64 HMAC of id.timestamp.body>, space-separated during a rotation',
      ),
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['id', 'type', 'createdAt', 'clinicId', 'data'],
            properties: {
              id: { type: 'string' },
              type: { type: 'string', enum: [...EVENT_TYPES] },
              createdAt: { type: 'string', format: 'date-time' },
              clinicId: { type: 'string' },
              data: { type: 'object', description: 'By type: see docs/webhooks.md' },
              errors: {
                type: 'array',
                description: 'Failed steps (a rejection, a denial, a failed pull)',
                items: {
                  type: 'object',
                  required: ['code', 'message'],
                  properties: { code: { type: 'string' }, message: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    },
    responses: { '2XX': { description: 'Delivered' }, '410': { description: 'Gone: the endpoint is disabled' } },
  },
};
