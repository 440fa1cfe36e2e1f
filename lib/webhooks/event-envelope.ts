// The partner event envelope (DECISIONS.md, Webhooks) and what a receiver answers. The envelope's `data` is
// left open here: each event type parses its own data (see event-effects.ts).
import { z } from 'zod';

const Id = z.string().min(1).max(200);

export const EventEnvelope = z.object({
  id: Id,
  type: z.string().min(1).max(200),
  createdAt: z.iso.datetime({ offset: true, message: 'createdAt must be an ISO-8601 timestamp' }),
  /** The clinic scope of the event: trusted because the body is signed, and taken from nowhere else. */
  clinicId: Id,
  data: z.record(z.string(), z.unknown()),
});
export type EventEnvelope = z.infer<typeof EventEnvelope>;

/**
 * - `applied`: the effect happened (once).
 * - `recorded`: acknowledged, nothing to apply (an unknown event type, or an effect already applied under
 *   another delivery id, e.g. the same paymentId).
 * - `rejected`: verified but not applicable (a bill, claim, patient or transfer not in the body's clinic, a
 *   transition the transfer's state does not allow). 200 all the same: a retry could never succeed.
 * - `stale`: older (by `createdAt`) than the last event applied to the same object; recorded, nothing changed.
 *   Answered as `{ received: true, stale: true }` (DECISIONS.md, Trust boundaries).
 */
export const DELIVERY_OUTCOMES = ['applied', 'recorded', 'rejected', 'stale'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

export const WebhookReceipt = z.object({
  received: z.literal(true),
  /**
   * True when this delivery id, or this signed envelope id, was seen before by the receiver: nothing was
   * changed. Absent on a stale answer.
   */
  duplicate: z.boolean().optional(),
  /** True when a newer event for the same object was already applied: recorded, nothing was changed. */
  stale: z.literal(true).optional(),
  /** First delivery only. */
  outcome: z.enum(['applied', 'recorded', 'rejected']).optional(),
  /** Why a first delivery was recorded or rejected rather than applied. */
  reason: z.string().optional(),
});
export type WebhookReceipt = z.infer<typeof WebhookReceipt>;

export const FaxProbeReceipt = z.object({ ok: z.literal(true), receiver: z.literal('fax') });
