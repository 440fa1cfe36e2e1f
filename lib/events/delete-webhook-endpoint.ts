// DELETE /api/webhook-endpoints/{id}: removes the endpoint with its deliveries and their attempts (step-up,
// audited). The events stay: they are the clinic's history, not the endpoint's.
import type { Db } from '../db';
import { recordAudit } from '../audit/record-audit';
import { findClinicEndpoint } from './webhook-endpoint-view';

export async function deleteWebhookEndpoint(
  deps: { db: Db },
  input: { id: string; clinicId: string; userId: string; correlationId: string },
): Promise<void> {
  const current = await findClinicEndpoint(deps.db, input);
  await deps.db.$transaction(async (tx) => {
    const deliveries = await tx.outboundDelivery.findMany({ where: { endpointId: current.id }, select: { id: true } });
    await tx.outboundAttempt.deleteMany({ where: { deliveryId: { in: deliveries.map((d) => d.id) } } });
    await tx.outboundDelivery.deleteMany({ where: { endpointId: current.id } });
    await tx.webhookEndpoint.delete({ where: { id: current.id } });
    await recordAudit(tx, {
      action: 'webhook-endpoint.delete',
      outcome: 'success',
      correlationId: input.correlationId,
      userId: input.userId,
      clinicId: input.clinicId,
      detail: { endpointId: current.id },
    });
  });
}
