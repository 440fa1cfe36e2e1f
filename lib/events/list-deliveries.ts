// GET /api/webhook-endpoints/{id}/deliveries: the endpoint's deliveries, newest first, at most 100.
import { z } from 'zod';
import type { Db } from '../db';
import { DeliveryView, toDeliveryView } from './delivery-view';
import { findClinicEndpoint } from './webhook-endpoint-view';

export const DeliveryList = z.object({ deliveries: z.array(DeliveryView) });

export async function listDeliveries(
  deps: { db: Db },
  input: { id: string; clinicId: string },
): Promise<z.infer<typeof DeliveryList>> {
  const endpoint = await findClinicEndpoint(deps.db, input);
  const rows = await deps.db.outboundDelivery.findMany({
    where: { endpointId: endpoint.id },
    orderBy: { seq: 'desc' },
    take: 100,
  });
  return { deliveries: rows.map(toDeliveryView) };
}
