// The one receiver behind every webhook route. The route wrapper has already verified X-Svc-Signature over
// the raw bytes and parsed the envelope; this requires X-Svc-Delivery, parses the event's data by type and
// runs the effect in the same database transaction as the delivery row. The row is unique per (receiver,
// deliveryId) and per (receiver, envelope id) and is inserted first: a concurrent copy of the delivery waits on
// it and then finds it, a later copy finds it at once, and either way answers `duplicate: true` having changed
// nothing. The envelope id is what the signature covers; X-Svc-Delivery is not signed, so the same signed
// body under a new delivery id is a duplicate too (DECISIONS.md, Trust boundaries). An effect with a
// one-statement common case (`applyWithDelivery`) writes the row and itself at once, or nothing; then the
// transaction runs as above.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Db } from '../db';
import type { Deps } from '../deps';
import type { Logger } from '../log';
import type { WebhookReceiver } from '../config';
import { AppError } from '../errors';
import { deliveryParams, insertDeliverySql, type DeliveryRow } from './delivery-row';
import { EventEnvelope, type WebhookReceipt } from './event-envelope';
import { applied, recorded, type EffectResult, type EventEffect, type VerifiedEvent } from './event-effect';
import { EVENT_EFFECTS } from './event-effects';

export const DELIVERY_HEADER = 'x-svc-delivery';
const DELIVERY_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;

// First statement of every delivery's transaction: the row is the idempotency lock (delivery-row.ts).
const INSERT_DELIVERY = insertDeliverySql(1);

// A delivery waits on a row lock only while a concurrent copy of itself commits, but 50 copies share the
// pool's connections: give the transaction room beyond Prisma's 2 s default wait.
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 15_000 };

/** @throws VALIDATION_FAILED (400) when the header is missing or not a usable id. */
function requireDeliveryId(header: string | null): string {
  const value = header?.trim();
  if (value && DELIVERY_ID.test(value)) return value;
  throw new AppError('VALIDATION_FAILED', 'The X-Svc-Delivery header is required', {
    issues: [
      {
        path: 'headers.x-svc-delivery',
        message: 'Expected a delivery id of 1-200 letters, digits, ".", "_", ":" or "-"',
      },
    ],
  });
}

/** How far ahead of our clock a signed `createdAt` may be: partner clock skew, not an event from the future. */
const MAX_FUTURE_SKEW_MS = 5 * 60_000;

/**
 * An event dated in the future would make every real event for its object stale until then (apply-in-order.ts),
 * so one beyond the skew is refused before anything is written (DECISIONS "Security findings of 2026-11-28").
 * @throws VALIDATION_FAILED (400) on `body.createdAt`.
 */
function assertNotFromTheFuture(createdAt: string, now: Date): void {
  if (Date.parse(createdAt) - now.getTime() <= MAX_FUTURE_SKEW_MS) return;
  throw new AppError('VALIDATION_FAILED', 'The event is dated in the future', {
    issues: [{ path: 'body.createdAt', message: 'createdAt may be at most 5 minutes ahead of our clock' }],
  });
}

function parseEventData(schema: z.ZodType, envelope: EventEnvelope): unknown {
  const result = schema.safeParse(envelope.data);
  if (result.success) return result.data;
  throw new AppError('VALIDATION_FAILED', `The ${envelope.type} event data is not valid`, {
    issues: result.error.issues.map((issue) => ({
      path: ['body', 'data', ...issue.path.map(String)].join('.'),
      message: issue.message,
    })),
  });
}

export type ReceiveEventInput = {
  receiver: WebhookReceiver;
  /** The X-Svc-Delivery header as received. */
  deliveryHeader: string | null;
  envelope: EventEnvelope;
  correlationId: string;
  log: Logger;
};

/**
 * Applies a verified event at most once per (receiver, delivery id) and per (receiver, envelope id), and never
 * after a newer event for the same object (`stale: true`).
 * @throws VALIDATION_FAILED (400) without a delivery id, for an event dated more than 5 minutes ahead, or when the
 *   data does not fit the event type (nothing is recorded, so a corrected re-delivery under the same id still applies).
 */
export async function receiveEvent(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: ReceiveEventInput,
): Promise<WebhookReceipt> {
  const deliveryId = requireDeliveryId(input.deliveryHeader);
  const { envelope, receiver } = input;
  const now = deps.clock();
  assertNotFromTheFuture(envelope.createdAt, now);
  // Own keys only: a type such as "constructor" must not find something on the prototype.
  const known = Object.hasOwn(EVENT_EFFECTS, envelope.type) ? EVENT_EFFECTS[envelope.type] : undefined;
  const effect = known?.receiver === receiver ? known : undefined;
  const data = effect ? parseEventData(effect.data, envelope) : undefined;
  const delivery: DeliveryRow = {
    id: `whd_${randomUUID().replaceAll('-', '')}`,
    receiver,
    deliveryId,
    eventType: envelope.type,
    clinicId: envelope.clinicId,
    correlationId: input.correlationId,
    receivedAt: now,
    envelopeId: envelope.id,
  };
  const event: VerifiedEvent<unknown> = {
    eventId: envelope.id,
    type: envelope.type,
    clinicId: envelope.clinicId,
    createdAt: envelope.createdAt,
    data,
    deliveryId,
    correlationId: input.correlationId,
    now,
  };

  // The effect's one-statement common case first, if it has one; when that wrote nothing, the transaction decides.
  const isApplied =
    effect?.applyWithDelivery !== undefined && (await effect.applyWithDelivery(deps.db, delivery, event));
  const result = isApplied ? applied() : await applyInTransaction(deps.db, delivery, effect, event);

  const logged = { receiver, deliveryId, eventId: envelope.id, type: envelope.type, clinicId: envelope.clinicId };
  if (result === 'duplicate') {
    input.log.info(logged, 'webhook re-delivery ignored');
    return { received: true, duplicate: true };
  }
  input.log.info(
    { ...logged, outcome: result.outcome, reason: 'reason' in result ? result.reason : undefined },
    'webhook delivery processed',
  );
  if (result.outcome === 'stale') return { received: true, stale: true };
  return { received: true, duplicate: false, ...result };
}

/**
 * The delivery row, then the effect, in one transaction: a duplicate finds the row and changes nothing. The row
 * is written as `applied` and rewritten here when the effect did not apply.
 */
function applyInTransaction(
  db: Db,
  delivery: DeliveryRow,
  effect: EventEffect | undefined,
  event: VerifiedEvent<unknown>,
): Promise<EffectResult | 'duplicate'> {
  return db.$transaction(async (tx): Promise<EffectResult | 'duplicate'> => {
    const count = await tx.$executeRawUnsafe(INSERT_DELIVERY, ...deliveryParams(delivery));
    if (count === 0) return 'duplicate';
    const outcome = effect ? await effect.apply(tx, event) : recorded('event type not handled by this receiver');
    if (outcome.outcome !== 'applied') {
      await tx.webhookDelivery.update({
        where: { receiver_deliveryId: { receiver: delivery.receiver, deliveryId: delivery.deliveryId } },
        data: { outcome: outcome.outcome },
      });
    }
    return outcome;
  }, TRANSACTION_OPTIONS);
}
