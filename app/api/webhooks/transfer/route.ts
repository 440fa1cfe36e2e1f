// POST /api/webhooks/transfer: signed transfer partner events (transfer.updated).
import { route } from '@/lib/http/route';
import { transferWebhook } from '@/lib/webhooks/endpoints';
import { DELIVERY_HEADER, receiveEvent } from '@/lib/webhooks/receive-event';

export const POST = route(transferWebhook, ({ body, request, deps, correlationId, log }) =>
  receiveEvent(deps, {
    receiver: 'transfer',
    deliveryHeader: request.headers.get(DELIVERY_HEADER),
    envelope: body,
    correlationId,
    log,
  }),
);
