// POST /api/webhook-endpoints/{id}/deliveries/{deliveryId}/resend (step-up): the same event again, as a new
// delivery (its own X-Svc-Delivery; the event id, webhook-id, is the event's), queued behind anything still
// waiting for that endpoint and object. A delivered event can be re-sent too (a receiver that lost it).
import type { Deps } from '../deps';
import { AppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import { toDeliveryView, type DeliveryView } from './delivery-view';
import { newDeliveryId } from './record-event';
import { findClinicEndpoint } from './webhook-endpoint-view';

export async function resendDelivery(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { id: string; deliveryId: string; clinicId: string; userId: string; correlationId: string },
): Promise<{ delivery: DeliveryView }> {
  const endpoint = await findClinicEndpoint(deps.db, input);
  const original = await deps.db.outboundDelivery.findFirst({
    where: { id: input.deliveryId, endpointId: endpoint.id },
  });
  if (!original) throw new AppError('NOT_FOUND', 'No such delivery');
  const now = deps.clock();
  const row = await deps.db.$transaction(async (tx) => {
    const created = await tx.outboundDelivery.create({
      data: {
        id: newDeliveryId(),
        eventId: original.eventId,
        endpointId: endpoint.id,
        clinicId: endpoint.clinicId,
        objectId: original.objectId,
        type: original.type,
        status: 'pending',
        nextAttemptAt: now,
        createdAt: now,
      },
    });
    await recordAudit(tx, {
      action: 'webhook-endpoint.resend',
      outcome: 'success',
      correlationId: input.correlationId,
      userId: input.userId,
      clinicId: input.clinicId,
      detail: { endpointId: endpoint.id, deliveryId: original.id, newDeliveryId: created.id },
    });
    return created;
  });
  return { delivery: toDeliveryView(row) };
}
