// POST /api/webhook-endpoints: registers an endpoint for the caller's clinic (step-up: it decides where the
// clinic's events go). The signing secret is answered here once and stored sealed.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Deps } from '../deps';
import { requireSealKey } from '../config';
import { recordAudit } from '../audit/record-audit';
import { EventTypeName } from './event-types';
import { assertEndpointUrlAllowed, EndpointUrl } from './endpoint-url';
import { newSigningSecret, sealSigningSecret } from './signing-secret';
import { toEndpointView, WebhookEndpointView } from './webhook-endpoint-view';

/** Event types, or ["*"] for every type (now and future). */
export const SubscribedEvents = z
  .array(z.union([EventTypeName, z.literal('*')]))
  .min(1)
  .max(20)
  .transform((events) => (events.includes('*') ? ['*'] : [...new Set(events)]));

export const CreateWebhookEndpointBody = z.object({
  url: EndpointUrl,
  events: SubscribedEvents,
  description: z.string().trim().max(200).optional(),
});
export type CreateWebhookEndpointBody = z.infer<typeof CreateWebhookEndpointBody>;

export const EndpointWithSecret = WebhookEndpointView.extend({ secret: z.string() });

export async function createWebhookEndpoint(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  input: CreateWebhookEndpointBody & { clinicId: string; userId: string; correlationId: string },
): Promise<z.infer<typeof EndpointWithSecret>> {
  const sealKey = requireSealKey(deps.config);
  await assertEndpointUrlAllowed(input.url, deps.config);
  const id = `we_${randomBytes(12).toString('base64url')}`;
  const secret = newSigningSecret();
  const row = await deps.db.$transaction(async (tx) => {
    const created = await tx.webhookEndpoint.create({
      data: {
        id,
        clinicId: input.clinicId,
        url: input.url,
        events: input.events,
        description: input.description || null,
        status: 'enabled',
        secretSealed: sealSigningSecret(secret, sealKey, id),
        createdAt: deps.clock(),
      },
    });
    await recordAudit(tx, {
      action: 'webhook-endpoint.create',
      outcome: 'success',
      correlationId: input.correlationId,
      userId: input.userId,
      clinicId: input.clinicId,
      detail: { endpointId: id, events: input.events },
    });
    return created;
  });
  return { ...toEndpointView(row, deps.clock()), secret };
}
