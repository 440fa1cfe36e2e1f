// POST /api/webhooks/emr: signed EMR events (emr.patient.updated: demographics only).
import { route } from '@/lib/http/route';
import { emrWebhook } from '@/lib/webhooks/endpoints';
import { DELIVERY_HEADER, receiveEvent } from '@/lib/webhooks/receive-event';

export const POST = route(emrWebhook, ({ body, request, deps, correlationId, log }) =>
  receiveEvent(deps, {
    receiver: 'emr',
    deliveryHeader: request.headers.get(DELIVERY_HEADER),
    envelope: body,
    correlationId,
    log,
  }),
);
