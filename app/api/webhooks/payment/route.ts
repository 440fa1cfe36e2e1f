// POST /api/webhooks/payment: signed payment processor events (payment.succeeded, payment.failed).
import { route } from '@/lib/http/route';
import { paymentWebhook } from '@/lib/webhooks/endpoints';
import { DELIVERY_HEADER, receiveEvent } from '@/lib/webhooks/receive-event';

export const POST = route(paymentWebhook, ({ body, request, deps, correlationId, log }) =>
  receiveEvent(deps, {
    receiver: 'payment',
    deliveryHeader: request.headers.get(DELIVERY_HEADER),
    envelope: body,
    correlationId,
    log,
  }),
);
