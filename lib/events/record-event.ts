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

const INSERT_EVENTS = `INSERT INTO "OutboundEvent" ("id", "clinicId", "type", "objectId", "data", "errors", "correlationId", "createdAt")
  SELECT u.id, u."clinicId", u.type, u."objectId", u.data, u.errors, u."correlationId", u."createdAt"
  FROM json_to_recordset($1::json)
    AS u(id text, "clinicId" text, type text, "objectId" text, data jsonb, errors jsonb, "correlationId" text, "createdAt" timestamptz)`;
// Inserted in the events' order, so each delivery's `seq` keeps the order of events about one object.
const INSERT_DELIVERIES = `INSERT INTO "OutboundDelivery" ("id", "eventId", "endpointId", "clinicId", "objectId", "type", "status", "nextAttemptAt", "createdAt")
  SELECT u.id, u."eventId", u."endpointId", u."clinicId", u."objectId", u.type, 'pending', u.at, u.at
  FROM ROWS FROM (json_to_recordset($1::json)
    AS ("id" text, "eventId" text, "endpointId" text, "clinicId" text, "objectId" text, type text, at timestamptz))
    WITH ORDINALITY AS u(id, "eventId", "endpointId", "clinicId", "objectId", type, at, n)
  ORDER BY u.n`;

/**
 * Many events of one change in two statements whatever their number (an 835 of thousands of claims reports one
 * event per claim): the same rows recordEvent writes one by one, in order. Not for events with a stable `id` or
 * `onlyEndpointId` (use recordEvent).
 */
export async function recordEvents(tx: Prisma.TransactionClient, events: readonly EventToRecord[]): Promise<void> {
  if (events.length === 0) return;
  const clinicIds = [...new Set(events.map((e) => e.clinicId))];
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { clinicId: { in: clinicIds }, status: 'enabled' },
    select: { id: true, clinicId: true, events: true },
    orderBy: { id: 'asc' },
  });
  const now = new Date();
  const rows = events.map((event) => ({
    id: newEventId(),
    clinicId: event.clinicId,
    type: event.type,
    objectId: event.objectId,
    data: event.data,
    errors: event.errors?.length ? event.errors : null,
    correlationId: event.correlationId ?? randomUUID(),
    createdAt: (event.at ?? now).toISOString(),
  }));
  await tx.$executeRawUnsafe(INSERT_EVENTS, JSON.stringify(rows));
  const deliveries = rows.flatMap((event) =>
    endpoints
      .filter((e) => e.clinicId === event.clinicId && (e.events.includes(event.type) || e.events.includes('*')))
      .map((e) => ({
        id: newDeliveryId(),
        eventId: event.id,
        endpointId: e.id,
        clinicId: event.clinicId,
        objectId: event.objectId,
        type: event.type,
        at: event.createdAt,
      })),
  );
  if (deliveries.length > 0) await tx.$executeRawUnsafe(INSERT_DELIVERIES, JSON.stringify(deliveries));
}
