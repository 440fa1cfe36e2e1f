// POST /api/webhook-endpoints/{id}/test: a `webhook.test` event to this endpoint only (whatever it subscribes to,
// enabled or not: a disabled endpoint's test waits until it is enabled), delivered like any other.
import type { Deps } from '../deps';
import { toDeliveryView, type DeliveryView } from './delivery-view';
import { recordEvent } from './record-event';
import { findClinicEndpoint } from './webhook-endpoint-view';

export async function sendTestEvent(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { id: string; clinicId: string; correlationId: string },
): Promise<{ delivery: DeliveryView }> {
  const endpoint = await findClinicEndpoint(deps.db, input);
  const row = await deps.db.$transaction(async (tx) => {
    const { deliveryIds } = await recordEvent(tx, {
      clinicId: input.clinicId,
      type: 'webhook.test',
      objectId: endpoint.id,
      data: { endpointId: endpoint.id },
      correlationId: input.correlationId,
      at: deps.clock(),
      onlyEndpointId: endpoint.id,
    });
    return tx.outboundDelivery.findUniqueOrThrow({ where: { id: deliveryIds[0]! } });
  });
  return { delivery: toDeliveryView(row) };
}
