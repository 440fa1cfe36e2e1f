// POST /api/webhooks/era: signed remittance events (era.received: an 835 interchange to post; 202 when queued).
import { route } from '@/lib/http/route';
import { ERA_QUEUED_REASON } from '@/lib/remittances/era-post-job';
import { eraWebhook } from '@/lib/webhooks/endpoints';
import { WebhookReceipt } from '@/lib/webhooks/event-envelope';
import { DELIVERY_HEADER, receiveEvent } from '@/lib/webhooks/receive-event';

export const POST = route(eraWebhook, async ({ body, request, deps, correlationId, log }) => {
  const receipt = await receiveEvent(deps, {
    receiver: 'era',
    deliveryHeader: request.headers.get(DELIVERY_HEADER),
    envelope: body,
    correlationId,
    log,
  });
  // A big 835 was accepted and queued, not posted yet (lib/remittances/era-post-job.ts).
  if (receipt.reason === ERA_QUEUED_REASON) return Response.json(WebhookReceipt.parse(receipt), { status: 202 });
  return receipt;
});
