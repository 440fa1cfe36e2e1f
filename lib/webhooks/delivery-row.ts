// The WebhookDelivery row, the first thing every delivery writes. It is unique per (receiver, deliveryId) and per
// (receiver, envelopeId), so inserting it is the delivery's idempotency lock: a concurrent copy of the same
// delivery waits on those keys until the first commits, then inserts nothing (ON CONFLICT without a target
// covers both keys). The row is written with the outcome `applied`, the common case; receive-event.ts rewrites
// it in the same transaction when the effect did not apply.
import type { WebhookReceiver } from '../config';

export type DeliveryRow = {
  id: string;
  receiver: WebhookReceiver;
  deliveryId: string;
  eventType: string;
  clinicId: string;
  correlationId: string;
  receivedAt: Date;
  envelopeId: string;
};

/**
 * The INSERT of a row given as eight bound parameters from `$first` on, in {@link deliveryParams} order. With
 * `when` (SQL), the row is written only when it holds. `RETURNING 1`: one row when written, none otherwise.
 */
export function insertDeliverySql(first: number, when = 'TRUE'): string {
  const $ = (offset: number) => `$${first + offset}`;
  return `INSERT INTO "WebhookDelivery" ("id", "receiver", "deliveryId", "eventType", "clinicId", "outcome", "correlationId", "receivedAt", "envelopeId")
    SELECT ${$(0)}, ${$(1)}, ${$(2)}, ${$(3)}, ${$(4)}, 'applied', ${$(5)}, ${$(6)}::timestamp, ${$(7)} WHERE ${when}
    ON CONFLICT DO NOTHING RETURNING 1`;
}

export const deliveryParams = (row: DeliveryRow) =>
  [
    row.id,
    row.receiver,
    row.deliveryId,
    row.eventType,
    row.clinicId,
    row.correlationId,
    row.receivedAt,
    row.envelopeId,
  ] as const;
