// Records an event in the caller's transaction (the outbox): the event and one delivery per enabled endpoint of
// the clinic that subscribes to its type exist exactly when the change it reports commits, so an event is never
// lost and never sent for a change that rolled back. The dispatcher (deliver-due-events.ts) sends them later.
// Call it inside the same `$transaction` as the change: `await recordEvent(tx, { clinicId, type, objectId, data })`.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Prisma } from '../db';
import type { EventData, EventError, EventType } from './event-types';

export type EventToRecord<T extends EventType = EventType> = {
  clinicId: string;
  type: T;
  /** What the event is about; deliveries to one endpoint keep the order of events about one object. */
  objectId: string;
  data: EventData[T];
  errors?: EventError[];
  /** The request or job that made the change, so its logs and the receiver's meet. */
  correlationId?: string;
  /** The change's time (the domain's clock); default now. */
  at?: Date;
  /** A stable id, for a caller that may record the same event twice (a retried job): the second is skipped. */
  id?: string;
  /** Only this endpoint (a test event), whatever it subscribes to. */
  onlyEndpointId?: string;
};

export const newEventId = () => `evt_${randomBytes(12).toString('base64url')}`;
export const newDeliveryId = () => `dlv_${randomBytes(12).toString('base64url')}`;

/** @returns the event's id and the deliveries it queued; `duplicate` when an event with the given id exists. */
export async function recordEvent<T extends EventType>(
  tx: Prisma.TransactionClient,
  event: EventToRecord<T>,
): Promise<{ eventId: string; deliveryIds: string[]; duplicate: boolean }> {
  const at = event.at ?? new Date();
  const eventId = event.id ?? newEventId();
  if (event.id && (await tx.outboundEvent.findUnique({ where: { id: event.id }, select: { id: true } })))
    return { eventId, deliveryIds: [], duplicate: true };
  await tx.outboundEvent.create({
    data: {
      id: eventId,
      clinicId: event.clinicId,
      type: event.type,
      objectId: event.objectId,
      data: event.data as Prisma.InputJsonValue,
      ...(event.errors?.length && { errors: event.errors }),
      correlationId: event.correlationId ?? randomUUID(),
      createdAt: at,
    },
  });
  const endpoints = await tx.webhookEndpoint.findMany({
    where: event.onlyEndpointId
      ? { id: event.onlyEndpointId, clinicId: event.clinicId }
      : { clinicId: event.clinicId, status: 'enabled', events: { hasSome: [event.type, '*'] } },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  const deliveries = endpoints.map(({ id: endpointId }) => ({
    id: newDeliveryId(),
    eventId,
    endpointId,
    clinicId: event.clinicId,
    objectId: event.objectId,
    type: event.type,
    status: 'pending',
    nextAttemptAt: at,
    createdAt: at,
  }));
  if (deliveries.length) await tx.outboundDelivery.createMany({ data: deliveries });
  return { eventId, deliveryIds: deliveries.map((d) => d.id), duplicate: false };
}
