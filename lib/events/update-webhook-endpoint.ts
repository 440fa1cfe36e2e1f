// PATCH /api/webhook-endpoints/{id}: change the URL or the events, or disable or enable it (step-up). Enabling
// clears the dispatcher's reason; its deliveries that were waiting resume in order.
import { z } from 'zod';
import type { Deps } from '../deps';
import { recordAudit } from '../audit/record-audit';
import { SubscribedEvents } from './create-webhook-endpoint';
import { assertEndpointUrlAllowed, EndpointUrl } from './endpoint-url';
import { findClinicEndpoint, toEndpointView, WebhookEndpointView } from './webhook-endpoint-view';

export const UpdateWebhookEndpointBody = z
  .object({
    url: EndpointUrl.optional(),
    events: SubscribedEvents.optional(),
    description: z.string().trim().max(200).optional(),
    status: z.enum(['enabled', 'disabled']).optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Change at least one field');
export type UpdateWebhookEndpointBody = z.infer<typeof UpdateWebhookEndpointBody>;

export async function updateWebhookEndpoint(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  input: UpdateWebhookEndpointBody & { id: string; clinicId: string; userId: string; correlationId: string },
): Promise<WebhookEndpointView> {
  const current = await findClinicEndpoint(deps.db, input);
  if (input.url !== undefined) await assertEndpointUrlAllowed(input.url, deps.config);
  const row = await deps.db.$transaction(async (tx) => {
    const updated = await tx.webhookEndpoint.update({
      where: { id: current.id },
      data: {
        ...(input.url !== undefined && { url: input.url }),
        ...(input.events !== undefined && { events: input.events }),
        ...(input.description !== undefined && { description: input.description || null }),
        ...(input.status !== undefined && { status: input.status, disabledReason: null }),
      },
    });
    await recordAudit(tx, {
      action: 'webhook-endpoint.update',
      outcome: 'success',
      correlationId: input.correlationId,
      userId: input.userId,
      clinicId: input.clinicId,
      detail: {
        endpointId: current.id,
        changed: Object.keys(input).filter((k) => ['url', 'events', 'description', 'status'].includes(k)),
        ...(input.status !== undefined && { status: input.status }),
      },
    });
    return updated;
  });
  return toEndpointView(row, deps.clock());
}
