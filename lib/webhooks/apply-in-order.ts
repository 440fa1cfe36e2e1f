// Per-object event order (DECISIONS.md, Trust boundaries): an event older, by its signed `createdAt`, than the
// last event applied to the same object (a patient, a transfer) is stale and changes nothing, so a late or
// replayed event cannot roll the object back. It owns the WebhookObjectClock row; what an event does to the
// object belongs to the effect it wraps.
import type { Prisma } from '../db';
import { stale, type EffectResult } from './event-effect';

export type EventObject = { clinicId: string; objectType: 'patient' | 'transfer'; objectId: string };

// Creates the clock row if missing ('epoch': nothing applied yet) or rewrites it unchanged, either way taking
// its row lock until the delivery's transaction ends, and returns the last applied createdAt. A concurrent
// event for the same object waits here, then reads what the first one committed, so two events can never
// both pass the check on the same old value and apply out of order.
const HOLD_CLOCK = `INSERT INTO "WebhookObjectClock" ("clinicId", "objectType", "objectId", "lastCreatedAt") VALUES ($1, $2, $3, 'epoch')
  ON CONFLICT ("clinicId", "objectType", "objectId") DO UPDATE SET "lastCreatedAt" = "WebhookObjectClock"."lastCreatedAt"
  RETURNING "lastCreatedAt"`;

const ADVANCE_CLOCK = `UPDATE "WebhookObjectClock" SET "lastCreatedAt" = $4
  WHERE "clinicId" = $1 AND "objectType" = $2 AND "objectId" = $3`;

/**
 * Runs `effect` unless an event created after `createdAt` was already applied to `object`; the clock moves to
 * `createdAt` only when the effect applied (a rejected or recorded event does not make older ones stale). An
 * event created at the same instant as the last applied one is not stale. Must run inside the delivery's
 * transaction: the check, the effect and the clock update commit together.
 */
export async function applyInOrder(
  tx: Prisma.TransactionClient,
  object: EventObject,
  createdAt: string,
  effect: () => Promise<EffectResult>,
): Promise<EffectResult> {
  const key = [object.clinicId, object.objectType, object.objectId] as const;
  const [clock] = await tx.$queryRawUnsafe<{ lastCreatedAt: Date }[]>(HOLD_CLOCK, ...key);
  const eventAt = new Date(createdAt);
  if (clock && eventAt.getTime() < clock.lastCreatedAt.getTime()) return stale();
  const result = await effect();
  if (result.outcome === 'applied') await tx.$executeRawUnsafe(ADVANCE_CLOCK, ...key, eventAt);
  return result;
}
