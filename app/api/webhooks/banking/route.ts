// POST /api/webhooks/banking: signed banking provider events (banking.transaction.posted: rail postings).
import { route } from '@/lib/http/route';
import { bankingWebhook } from '@/lib/webhooks/endpoints';
import { DELIVERY_HEADER, receiveEvent } from '@/lib/webhooks/receive-event';

export const POST = route(bankingWebhook, ({ body, request, deps, correlationId, log }) =>
  receiveEvent(deps, {
    receiver: 'banking',
    deliveryHeader: request.headers.get(DELIVERY_HEADER),
    envelope: body,
    correlationId,
    log,
  }),
);
