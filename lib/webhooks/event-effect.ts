// The shape every event type's effect has: which receiver accepts it, the zod schema of its `data`, and
// `apply`, which runs inside the delivery's database transaction (the delivery row is already written there).
import type { z } from 'zod';
import type { Db, Prisma } from '../db';
import type { WebhookReceiver } from '../config';
import type { DeliveryRow } from './delivery-row';
import type { DeliveryOutcome } from './event-envelope';

export type VerifiedEvent<D> = {
  eventId: string;
  type: string;
  /** From the signed body only. */
  clinicId: string;
  createdAt: string;
  data: D;
  deliveryId: string;
  correlationId: string;
  /** The receiver's clock reading for this delivery. */
  now: Date;
};

export type EffectResult =
  | { outcome: Extract<DeliveryOutcome, 'applied'> }
  | { outcome: Extract<DeliveryOutcome, 'stale'> }
  | { outcome: Exclude<DeliveryOutcome, 'applied' | 'stale'>; reason: string };

export type EventEffect<S extends z.ZodType = z.ZodType> = {
  receiver: WebhookReceiver;
  data: S;
  /** Writes the effect through `tx` and says what happened. Throws only for real failures (rolled back, 500). */
  apply(tx: Prisma.TransactionClient, event: VerifiedEvent<z.infer<S>>): Promise<EffectResult>;
  /**
   * Optional, for an event type that must ingest fast: its common case (a first delivery that applies) as one
   * statement outside any transaction, writing the delivery row and the whole effect, or nothing at all. False
   * hands the delivery to the transaction and `apply`, which decide everything else (a duplicate, a refusal).
   */
  applyWithDelivery?(db: Db, delivery: DeliveryRow, event: VerifiedEvent<z.infer<S>>): Promise<boolean>;
};

export const defineEffect = <S extends z.ZodType>(effect: EventEffect<S>): EventEffect<S> => effect;

export const applied = (): EffectResult => ({ outcome: 'applied' });
export const recorded = (reason: string): EffectResult => ({ outcome: 'recorded', reason });
export const rejected = (reason: string): EffectResult => ({ outcome: 'rejected', reason });
export const stale = (): EffectResult => ({ outcome: 'stale' });
