// The signed partner webhook receivers (DECISIONS.md, Webhooks). The signature is the credential: the wrapper
// verifies X-Svc-Signature over the raw body under the receiver's secret(s) before anything parses it. Every
// POST also needs X-Svc-Delivery, the delivery's idempotency key (docs/webhooks.md); the signed envelope id is
// a second one, since the header is not signed.
import { endpoint } from '../endpoint';
import { EventEnvelope, FaxProbeReceipt, WebhookReceipt } from './event-envelope';

const receiverErrors = ['VALIDATION_FAILED' as const];
const HEADERS =
  ' Headers: X-Svc-Signature (hex HMAC-SHA256 of the raw body, optional sha256= prefix) and X-Svc-Delivery (idempotency key; a re-delivery, or the same signed envelope id under any delivery id, answers duplicate: true). An event older than the last one applied to the same patient or transfer answers stale: true and changes nothing.';

export const paymentWebhook = endpoint({
  method: 'POST',
  path: '/api/webhooks/payment',
  tags: ['webhooks'],
  summary:
    'Payment processor events: payment.succeeded (marks the bill or claim paid, posts the ledger), payment.failed. Halted by SVC_HALT.' +
    HEADERS,
  auth: { signature: 'payment' },
  money: true,
  body: EventEnvelope,
  response: WebhookReceipt,
  errors: receiverErrors,
});

export const faxWebhook = endpoint({
  method: 'POST',
  path: '/api/webhooks/fax',
  tags: ['webhooks'],
  summary: 'Fax provider events: fax.received stores the inbound fax record' + HEADERS,
  auth: { signature: 'fax' },
  body: EventEnvelope,
  response: WebhookReceipt,
  errors: receiverErrors,
});

export const faxWebhookProbe = endpoint({
  method: 'GET',
  path: '/api/webhooks/fax',
  tags: ['webhooks'],
  summary: 'Reachability probe for the fax provider: X-Svc-Signature is the HMAC of the empty body',
  auth: { signature: 'fax' },
  response: FaxProbeReceipt,
});

export const emrWebhook = endpoint({
  method: 'POST',
  path: '/api/webhooks/emr',
  tags: ['webhooks'],
  summary: "EMR events: emr.patient.updated updates the patient's demographics only" + HEADERS,
  auth: { signature: 'emr' },
  body: EventEnvelope,
  response: WebhookReceipt,
  errors: receiverErrors,
});

export const transferWebhook = endpoint({
  method: 'POST',
  path: '/api/webhooks/transfer',
  tags: ['webhooks'],
  summary: 'Transfer partner events: transfer.updated advances a transfer along its allowed transitions' + HEADERS,
  auth: { signature: 'transfer' },
  body: EventEnvelope,
  response: WebhookReceipt,
  errors: receiverErrors,
});

export const bankingWebhook = endpoint({
  method: 'POST',
  path: '/api/webhooks/banking',
  tags: ['webhooks'],
  summary:
    'Banking provider events: banking.transaction.posted records a rail posting for reconciliation (and confirms the ' +
    'payout batch whose trace number it names); banking.transaction.returned reverses a returned payout entry once' +
    HEADERS,
  auth: { signature: 'banking' },
  body: EventEnvelope,
  response: WebhookReceipt,
  errors: receiverErrors,
});

export const eraWebhook = endpoint({
  method: 'POST',
  path: '/api/webhooks/era',
  tags: ['webhooks'],
  summary:
    'Remittances (X12 835) from a clearinghouse or payer: era.received with data { x12 } posts every 835 of the interchange for the signed clinic (docs/remittances.md). 422 when an 835 is unreadable, empty, unbalanced or has no CLP naming a claim of the clinic that was sent (a CLP naming a draft or an unknown claim is kept unmatched and posts nowhere), 400 when it holds a control character: nothing is posted or recorded. An 835 already posted (same payer id and TRN02) answers outcome recorded. An interchange of more than 500 claims (CLPs) is checked the same way, then answered 202 (outcome recorded, reason "remittance queued for posting") and posted by a background job, exactly once per 835. Halted by SVC_HALT.' +
    HEADERS,
  auth: { signature: 'era' },
  accepted: {
    response: WebhookReceipt,
    description: 'Accepted: an 835 of more than 500 claims, queued for posting in the background',
  },
  money: true,
  body: EventEnvelope,
  response: WebhookReceipt,
  errors: [...receiverErrors, 'UNPROCESSABLE'],
});

export const webhookEndpoints = [
  paymentWebhook,
  faxWebhook,
  faxWebhookProbe,
  emrWebhook,
  transferWebhook,
  bankingWebhook,
  eraWebhook,
];
