// A delivery as the webhooks screen and GET …/deliveries show it (DECISIONS "Events out").
import { z } from 'zod';
import type { Prisma } from '../db';

export const DeliveryView = z.object({
  id: z.string(),
  eventId: z.string(),
  type: z.string(),
  /** Attempts made so far. */
  attempt: z.number().int(),
  status: z.enum(['pending', 'retrying', 'delivered', 'failed']),
  /** The last attempt's HTTP status; null before any answer (not tried yet, timeout, refused). */
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  /** When it was created (queued). */
  at: z.string(),
  /** When the next attempt is due, while pending or retrying. */
  nextAttemptAt: z.string().nullable(),
});
export type DeliveryView = z.infer<typeof DeliveryView>;

export function toDeliveryView(row: Prisma.OutboundDeliveryGetPayload<object>): DeliveryView {
  const open = row.status === 'pending' || row.status === 'retrying';
  return {
    id: row.id,
    eventId: row.eventId,
    type: row.type,
    attempt: row.attempts,
    status: DeliveryView.shape.status.parse(row.status),
    responseStatus: row.lastResponseStatus,
    durationMs: row.lastDurationMs,
    at: row.createdAt.toISOString(),
    nextAttemptAt: open ? row.nextAttemptAt.toISOString() : null,
  };
}
