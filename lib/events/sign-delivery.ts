// The headers of one delivery (DECISIONS "Events out"): X-Svc-Signature is SPEC's rule (hex HMAC-SHA256 of the
// raw body), and the Standard Webhooks trio lets a receiver use that library's verifier instead. During a
// rotation every header carries a signature under each live secret, the newest first. Pure: no clock, no I/O.
import { createHmac } from 'node:crypto';
import { signingKey } from './signing-secret';

export type DeliveryToSign = {
  body: string;
  /** The endpoint's live secrets (`whsec_…`), current first. */
  secrets: readonly string[];
  eventId: string;
  deliveryId: string;
  correlationId: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
};

export function deliveryHeaders(d: DeliveryToSign): Record<string, string> {
  const keys = d.secrets.map(signingKey);
  const hex = keys.map((key) => `sha256=${createHmac('sha256', key).update(d.body, 'utf8').digest('hex')}`);
  const signed = `${d.eventId}.${d.timestamp}.${d.body}`;
  const v1 = keys.map((key) => `v1,${createHmac('sha256', key).update(signed, 'utf8').digest('base64')}`);
  return {
    'content-type': 'application/json',
    'user-agent': 'clinic-revenue-platform-webhooks/1',
    'x-svc-signature': hex.join(','),
    'x-svc-delivery': d.deliveryId,
    'x-correlation-id': d.correlationId,
    'webhook-id': d.eventId,
    'webhook-timestamp': String(d.timestamp),
    // Standard Webhooks separates several signatures with spaces.
    'webhook-signature': v1.join(' '),
  };
}
