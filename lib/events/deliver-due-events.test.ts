// The dispatcher on real PostgreSQL, the real egress client and a local receiver, with a simulated clock: the
// ruled retry schedule runs its whole 3 days in a moment, then the endpoint is disabled with its reason; a 410
// disables at once; order per endpoint and object holds while an earlier delivery retries.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from '@/lib/db';
import { createEgress } from '@/lib/outbound/egress';
import { createLogger } from '@/lib/log';
import type { Config } from '@/lib/config';
import { createTestDatabase, type TestDatabase } from '@/test/support/postgres';
import { startWebhookReceiver, type WebhookReceiver } from '@/test/support/webhook-receiver';
import { deliverDueEvents, type DispatchDeps } from './deliver-due-events';
import { recordEvent } from './record-event';
import { newSigningSecret, sealSigningSecret } from './signing-secret';

let database: TestDatabase;
let db: Db;
let receiver: WebhookReceiver;
let now: Date;
const sealKey = randomBytes(32);
const clinicId = 'clinic_dispatch';

function deps(): DispatchDeps {
  return {
    db,
    clock: () => now,
    egress: createEgress({ mode: 'sandbox', allowedOrigins: [] }),
    config: { sealKey, mode: 'sandbox' } as Config,
    log: createLogger('silent'),
    random: () => 0.5,
  };
}

async function endpoint(): Promise<string> {
  const id = `we_${randomBytes(6).toString('hex')}`;
  await db.webhookEndpoint.create({
    data: {
      id,
      clinicId,
      url: receiver.url,
      events: ['*'],
      status: 'enabled',
      secretSealed: sealSigningSecret(newSigningSecret(), sealKey, id),
    },
  });
  return id;
}

const record = (objectId: string, n: number) =>
  db.$transaction((tx) =>
    recordEvent(tx, { clinicId, type: 'webhook.test', objectId, data: { endpointId: String(n) }, at: now }),
  );

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDb({ kind: 'postgres', url: database.url });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await db?.$disconnect();
  await database?.drop();
});
beforeEach(async () => {
  now = new Date('2026-11-28T12:00:00Z');
  receiver.received.length = 0;
  await db.outboundAttempt.deleteMany();
  await db.outboundDelivery.deleteMany();
  await db.webhookEndpoint.deleteMany();
});

describe('deliverDueEvents', () => {
  it('retries a failing endpoint on the ruled schedule for 3 days, then disables it with the reason', async () => {
    const endpointId = await endpoint();
    receiver.answer = () => 500;
    const { deliveryIds } = await record('obj_1', 1);
    const attemptsAt: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      if ((await deliverDueEvents(deps())) === 0) break;
      attemptsAt.push(now.getTime());
      const delivery = await db.outboundDelivery.findUniqueOrThrow({ where: { id: deliveryIds[0]! } });
      if (delivery.status !== 'retrying') break;
      // Nothing is sent before its time.
      now = new Date(delivery.nextAttemptAt.getTime() - 1);
      expect(await deliverDueEvents(deps())).toBe(0);
      now = delivery.nextAttemptAt;
    }
    const gaps = attemptsAt.slice(1).map((t, i) => (t - attemptsAt[i]!) / 1000);
    expect(gaps).toEqual([10, 60, 300, 1800, 7200, 21600, 43200, 43200, 43200, 43200, 43200]);
    expect(receiver.received).toHaveLength(12);
    const delivery = await db.outboundDelivery.findUniqueOrThrow({ where: { id: deliveryIds[0]! } });
    expect(delivery).toMatchObject({ status: 'failed', attempts: 12, lastResponseStatus: 500 });
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).toMatchObject({
      status: 'disabled',
      disabledReason: 'Deliveries failed for 3 days (last: HTTP 500)',
    });
    const attempts = await db.outboundAttempt.findMany({ where: { deliveryId: deliveryIds[0]! } });
    expect(attempts.map((a) => [a.responseStatus, a.excerpt])).toEqual(Array(12).fill([500, 'failed with 500']));
    // Disabled: a new event waits, nothing is sent.
    await record('obj_2', 2);
    expect(await deliverDueEvents(deps())).toBe(0);
  });

  it("counts the 3 days from the first attempt, not from the event's own time (a bank posting of days ago)", async () => {
    const endpointId = await endpoint();
    receiver.answer = () => 500;
    const postedAt = new Date(now.getTime() - 4 * 86_400_000);
    const { deliveryIds } = await db.$transaction((tx) =>
      recordEvent(tx, {
        clinicId,
        type: 'webhook.test',
        objectId: 'obj_old',
        data: { endpointId: 'old' },
        at: postedAt,
      }),
    );
    expect(await deliverDueEvents(deps())).toBe(1);
    expect(await db.outboundDelivery.findUniqueOrThrow({ where: { id: deliveryIds[0]! } })).toMatchObject({
      status: 'retrying',
      nextAttemptAt: new Date(now.getTime() + 10_000),
    });
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).status).toBe('enabled');
  });

  it('records a secret it cannot unseal as a failed attempt that sends nothing, so the schedule still ends', async () => {
    const endpointId = await endpoint();
    await db.webhookEndpoint.update({
      where: { id: endpointId },
      data: { secretSealed: sealSigningSecret(newSigningSecret(), randomBytes(32), endpointId) },
    });
    const { deliveryIds } = await record('obj_1', 1);
    expect(await deliverDueEvents(deps())).toBe(1);
    expect(receiver.received).toHaveLength(0);
    expect(await db.outboundAttempt.findMany({ where: { deliveryId: deliveryIds[0]! } })).toMatchObject([
      { attempt: 1, responseStatus: null, excerpt: 'The signing secret could not be read; nothing was sent' },
    ]);
    expect((await db.outboundDelivery.findUniqueOrThrow({ where: { id: deliveryIds[0]! } })).status).toBe('retrying');
  });

  it('disables the endpoint at once on 410 Gone', async () => {
    const endpointId = await endpoint();
    receiver.answer = () => 410;
    await record('obj_1', 1);
    expect(await deliverDueEvents(deps())).toBe(1);
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).toMatchObject({
      status: 'disabled',
      disabledReason: 'The endpoint answered 410 Gone',
    });
  });

  it('keeps a later event of the same object waiting while an earlier one retries; other objects go on', async () => {
    await endpoint();
    receiver.answer = ({ envelope, count }) => (envelope.data.endpointId === '1' && count === 1 ? 500 : 200);
    await record('obj_a', 1);
    await record('obj_a', 2);
    await record('obj_b', 3);
    await deliverDueEvents(deps());
    expect(receiver.received.map((r) => [r.envelope.data.endpointId, r.status])).toEqual([
      ['1', 500],
      ['3', 200],
    ]);
    now = new Date(now.getTime() + 11_000);
    await deliverDueEvents(deps());
    expect(receiver.delivered().map((r) => r.envelope.data.endpointId)).toEqual(['3', '1', '2']);
  });
});
