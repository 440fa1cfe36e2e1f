// Three instances of the built app on one PostgreSQL database, each running the dispatcher: every event reaches
// its endpoint once, and events about one object arrive in the order they were recorded, even while one of them
// is retried (DECISIONS "Events out"). Test events are about their endpoint, so each endpoint is one object here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { holdStepUp } from '../support/step-up-claim';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let database: TestDatabase;
let apps: TestApp[] = [];
let receiver: WebhookReceiver;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The same signed-in browser, talking to another instance (sessions are signed with the shared AUTH_SECRET). */
function on(app: TestApp, client: HttpClient): HttpClient {
  const moved = new HttpClient(app.url);
  for (const [name, value] of client.cookies) moved.cookies.set(name, value);
  return moved;
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  database = await createTestDatabase();
  apps = await Promise.all([1, 2, 3].map(() => startApp({ reuse: database })));
}, 170_000);

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop()));
  await receiver?.close();
  await database?.drop();
});

describe('three instances dispatching together', () => {
  it('deliver each event once, in order per endpoint and object, a retry holding back the ones after it', async () => {
    const admin = await holdStepUp(apps[0]!, await signIn(apps[0]!, 'admin@northside.test'));
    const endpoints: string[] = [];
    for (const path of ['a', 'b']) {
      const res = await admin.post('/api/webhook-endpoints', { url: `${receiver.url}?${path}`, events: ['*'] });
      expect(res.status, res.text).toBe(201);
      endpoints.push(res.body.id);
    }
    const recorded = new Map<string, string[]>(endpoints.map((id) => [id, []]));
    // The 5th event of the first endpoint fails once: the ones after it must wait for its retry (10 s).
    let fifth = '';
    receiver.answer = ({ envelope, count }) => (envelope.id === fifth && count === 1 ? 500 : 200);
    for (let i = 0; i < 24; i += 1) {
      const endpointId = endpoints[i % 2]!;
      const res = await on(apps[i % 3]!, admin).post(`/api/webhook-endpoints/${endpointId}/test`);
      expect(res.status, res.text).toBe(202);
      recorded.get(endpointId)!.push(res.body.delivery.eventId);
      if (recorded.get(endpoints[0]!)!.length === 5 && !fifth) fifth = res.body.delivery.eventId;
    }

    const deadline = Date.now() + 45_000;
    while (receiver.delivered().length < 24 && Date.now() < deadline) await sleep(250);
    await sleep(2000); // anything sent twice would have arrived by now
    for (const endpointId of endpoints) {
      const arrived = receiver
        .delivered()
        .filter((r) => r.envelope.data.endpointId === endpointId)
        .map((r) => r.envelope.id);
      expect(arrived).toEqual(recorded.get(endpointId));
    }
    expect(receiver.received.filter((r) => r.envelope.id === fifth).map((r) => r.status)).toEqual([500, 200]);
    const deliveries = await apps[0]!.db.outboundDelivery.findMany({ where: { endpointId: { in: endpoints } } });
    expect(deliveries.map((d) => d.status)).toEqual(Array(24).fill('delivered'));
  }, 90_000);
});
