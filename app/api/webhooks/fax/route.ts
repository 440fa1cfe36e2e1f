// GET /api/webhooks/fax: signature-verified reachability probe (HMAC of the empty body).
// POST /api/webhooks/fax: signed fax provider events (fax.received).
import { route } from '@/lib/http/route';
import { faxWebhook, faxWebhookProbe } from '@/lib/webhooks/endpoints';
import { DELIVERY_HEADER, receiveEvent } from '@/lib/webhooks/receive-event';

export const GET = route(faxWebhookProbe, () => ({ ok: true, receiver: 'fax' }));

export const POST = route(faxWebhook, ({ body, request, deps, correlationId, log }) =>
  receiveEvent(deps, {
    receiver: 'fax',
    deliveryHeader: request.headers.get(DELIVERY_HEADER),
    envelope: body,
    correlationId,
    log,
  }),
);
