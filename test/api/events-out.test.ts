// Events out (issue #25, DECISIONS "Events out") over real HTTP against the built app on PostgreSQL, with a local
// receiver standing in for a customer's endpoint: registration (scope, step-up, tenancy, the secret shown once
// and sealed), deliveries that verify with SPEC's rule and with the Standard Webhooks verifier, retries after a
// 500 and after a timeout that still arrive once per event id, rotation signing with both secrets, re-send, an
// event of a rolled-back change never sent, and production refusing loopback, private and metadata addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { signingKey } from '@/lib/events/signing-secret';
import { MAX_AMOUNT_CENTS } from '@/lib/money/cents';
import { verifySignature } from '@/lib/webhooks/verify-signature';
import { startApp, type TestApp } from '../support/app';
import { signIn, type HttpClient } from '../support/http';
import { holdStepUp } from '../support/step-up-claim';
import { createTenant, createUser } from '../support/factories';
import { claimPayment, createClaim, remittanceOf, x12Of, type LineSpec } from '../support/remittances';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { until } from '../support/until';

let app: TestApp;
let receiver: WebhookReceiver;
let admin: HttpClient;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What an integrator's receiver does (docs/webhooks.md): SPEC's hex HMAC under any of the header's signatures. */
function verifiesWithSpecRule(body: string, header: string, secret: string): boolean {
  return header.split(',').some((part) => verifySignature(Buffer.from(body), part, [signingKey(secret)]));
}

/** Makes the delivery due now, as if its retry time had come (the schedule itself is tested with a clock). */
const makeDue = (deliveryId: string) =>
  app.db.outboundDelivery.update({ where: { id: deliveryId }, data: { nextAttemptAt: new Date() } });

async function register(events: string[] = ['*']) {
  const res = await admin.post('/api/webhook-endpoints', { url: receiver.url, events, description: 'PM system' });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; secret: string };
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  app = await startApp();
  admin = await holdStepUp(app, await signIn(app, 'admin@northside.test'));
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await receiver?.close();
});

describe('webhook endpoints', () => {
  it('registers with step-up, answers the secret once and keeps it sealed', async () => {
    const plain = await signIn(app, 'admin@northside.test');
    const refused = await plain.post('/api/webhook-endpoints', { url: receiver.url, events: ['claim.paid'] });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('STEP_UP_REQUIRED');

    const created = await admin.post('/api/webhook-endpoints', { url: receiver.url, events: ['claim.paid'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: receiver.url, events: ['claim.paid'], status: 'enabled' });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const row = await app.db.webhookEndpoint.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(row.secretSealed).not.toContain(created.body.secret.slice(6, 20));
    const listed = await admin.get('/api/webhook-endpoints');
    expect(listed.text).not.toContain(created.body.secret);
    expect(listed.body.endpoints.map((e: { id: string }) => e.id)).toContain(created.body.id);
    expect((await admin.get(`/api/webhook-endpoints/${created.body.id}`)).body).not.toHaveProperty('secret');

    const bad = await admin.post('/api/webhook-endpoints', { url: receiver.url, events: ['claim.exploded'] });
    expect(bad.status).toBe(400);
    expect((await admin.delete(`/api/webhook-endpoints/${created.body.id}`)).status).toBe(204);
  });

  it('needs webhooks:admin, and another clinic’s endpoints are 404', async () => {
    const billing = await holdStepUp(app, await signIn(app, 'billing@northside.test'));
    expect((await billing.get('/api/webhook-endpoints')).status).toBe(403);
    const { id } = await register(['claim.paid']);
    const south = await holdStepUp(app, await signIn(app, 'admin@southside.test'));
    expect((await south.get('/api/webhook-endpoints')).body.endpoints).toEqual([]);
    expect((await south.get(`/api/webhook-endpoints/${id}`)).status).toBe(404);
    expect((await south.patch(`/api/webhook-endpoints/${id}`, { status: 'disabled' })).status).toBe(404);
    expect((await south.post(`/api/webhook-endpoints/${id}/rotate-secret`)).status).toBe(404);
    expect((await south.post(`/api/webhook-endpoints/${id}/test`)).status).toBe(404);
    expect((await south.get(`/api/webhook-endpoints/${id}/deliveries`)).status).toBe(404);
    expect((await south.delete(`/api/webhook-endpoints/${id}`)).status).toBe(404);
    expect((await admin.get(`/api/webhook-endpoints/${id}`)).body.status).toBe('enabled');
    expect((await admin.delete(`/api/webhook-endpoints/${id}`)).status).toBe(204);
  });
});

describe('deliveries', () => {
  it('delivers a test event whose signature verifies with SPEC’s rule and with standardwebhooks', async () => {
    const { id, secret } = await register(['claim.paid']);
    const sent = await admin.post(`/api/webhook-endpoints/${id}/test`);
    expect(sent.status).toBe(202);
    const got = await until(
      () => receiver.received.filter((r) => r.headers['x-svc-delivery'] === sent.body.delivery.id),
      (r) => r.length > 0,
    );
    expect(got).toHaveLength(1);
    const { headers, body, envelope } = got[0]!;
    expect(envelope).toEqual({
      id: sent.body.delivery.eventId,
      type: 'webhook.test',
      createdAt: expect.any(String),
      clinicId: 'clinic_north',
      data: { endpointId: id },
    });
    expect(verifiesWithSpecRule(body, String(headers['x-svc-signature']), secret)).toBe(true);
    expect(new Webhook(secret).verify(body, headers as Record<string, string>)).toEqual(envelope);
    expect(headers['webhook-id']).toBe(envelope.id);
    expect(String(headers['x-correlation-id'])).toMatch(/^[A-Za-z0-9][A-Za-z0-9._:-]{7,127}$/);
    const list = await until(
      () => admin.get(`/api/webhook-endpoints/${id}/deliveries`),
      (r) => r.body.deliveries[0]?.status === 'delivered',
    );
    expect(list.body.deliveries[0]).toMatchObject({ id: sent.body.delivery.id, attempt: 1, responseStatus: 200 });
    await admin.delete(`/api/webhook-endpoints/${id}`);
  });

  it('retries after a 500 and after a timeout, and each event arrives once', async () => {
    const { id } = await register();
    const failing = new Map<string, 'hang' | number>();
    receiver.answer = ({ envelope, count }) => (count === 1 ? (failing.get(envelope.data.endpointId) ?? 200) : 200);
    failing.set(id, 500);
    const first = (await admin.post(`/api/webhook-endpoints/${id}/test`)).body.delivery;
    const afterFail = await until(
      async () => app.db.outboundDelivery.findUniqueOrThrow({ where: { id: first.id } }),
      (d) => d.attempts === 1,
    );
    expect(afterFail).toMatchObject({ status: 'retrying', lastResponseStatus: 500 });
    // 10 s ± 10 % after the failure.
    const wait = afterFail.nextAttemptAt.getTime() - (afterFail.finishedAt ?? afterFail.createdAt).getTime();
    expect(wait).toBeGreaterThan(8_000);
    await makeDue(first.id);
    await until(
      () => app.db.outboundDelivery.findUniqueOrThrow({ where: { id: first.id } }),
      (d) => d.status === 'delivered',
    );

    failing.set(id, 'hang');
    const second = (await admin.post(`/api/webhook-endpoints/${id}/test`)).body.delivery;
    const timedOut = await until(
      () => app.db.outboundAttempt.findFirst({ where: { deliveryId: second.id } }),
      (a) => a !== null,
      25_000,
    );
    expect(timedOut).toMatchObject({ responseStatus: null, excerpt: 'No answer within 10 s' });
    expect(timedOut!.durationMs).toBeGreaterThanOrEqual(9_900);
    await makeDue(second.id);
    await until(
      () => app.db.outboundDelivery.findUniqueOrThrow({ where: { id: second.id } }),
      (d) => d.status === 'delivered',
    );

    for (const event of [first.eventId, second.eventId]) {
      expect(receiver.delivered().filter((r) => r.envelope.id === event)).toHaveLength(1);
      // Every attempt carried the same delivery id.
      expect(
        new Set(receiver.received.filter((r) => r.envelope.id === event).map((r) => r.headers['x-svc-delivery'])).size,
      ).toBe(1);
    }
    const listed = await admin.get(`/api/webhook-endpoints/${id}/deliveries`);
    expect(listed.body.deliveries.map((d: { attempt: number; status: string }) => [d.attempt, d.status])).toEqual([
      [2, 'delivered'],
      [2, 'delivered'],
    ]);
    receiver.answer = () => 200;
    await admin.delete(`/api/webhook-endpoints/${id}`);
  }, 60_000);

  it('after a rotation signs with the new and the old secret; a re-send is a new delivery of the same event', async () => {
    const { id, secret: old } = await register();
    const plain = await signIn(app, 'admin@northside.test');
    expect((await plain.post(`/api/webhook-endpoints/${id}/rotate-secret`)).status).toBe(401);
    const rotated = await admin.post(`/api/webhook-endpoints/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.secret as string;
    expect(fresh).not.toBe(old);
    const sent = (await admin.post(`/api/webhook-endpoints/${id}/test`)).body.delivery;
    const [got] = await until(
      () => receiver.delivered().filter((r) => r.headers['x-svc-delivery'] === sent.id),
      (r) => r.length > 0,
    );
    const header = String(got!.headers['x-svc-signature']);
    expect(header.split(',')).toHaveLength(2);
    for (const secret of [fresh, old]) {
      expect(verifiesWithSpecRule(got!.body, header, secret)).toBe(true);
      expect(new Webhook(secret).verify(got!.body, got!.headers as Record<string, string>)).toEqual(got!.envelope);
    }
    expect((await admin.get(`/api/webhook-endpoints/${id}`)).body.previousSecretExpiresAt).toBe(
      rotated.body.previousSecretExpiresAt,
    );

    const resent = await admin.post(`/api/webhook-endpoints/${id}/deliveries/${sent.id}/resend`);
    expect(resent.status).toBe(202);
    expect(resent.body.delivery).toMatchObject({ eventId: sent.eventId, status: 'pending' });
    expect(resent.body.delivery.id).not.toBe(sent.id);
    const again = await until(
      () => receiver.delivered().filter((r) => r.headers['x-svc-delivery'] === resent.body.delivery.id),
      (r) => r.length > 0,
    );
    expect(again[0]!.envelope.id).toBe(sent.eventId);
    await admin.delete(`/api/webhook-endpoints/${id}`);
  });

  it('two rotations at once: each secret shown to its caller signs the next delivery', async () => {
    const { id } = await register();
    const rotations = await Promise.all([1, 2].map(() => admin.post(`/api/webhook-endpoints/${id}/rotate-secret`)));
    expect(rotations.map((r) => r.status)).toEqual([200, 200]);
    const sent = (await admin.post(`/api/webhook-endpoints/${id}/test`)).body.delivery;
    const [got] = await until(
      () => receiver.delivered().filter((r) => r.headers['x-svc-delivery'] === sent.id),
      (r) => r.length > 0,
    );
    for (const secret of rotations.map((r) => r.body.secret as string)) {
      expect(new Webhook(secret).verify(got!.body, got!.headers as Record<string, string>)).toEqual(got!.envelope);
    }
    await admin.delete(`/api/webhook-endpoints/${id}`);
  });

  it('never sends an event of a change that rolled back, and sends the one that committed', async () => {
    const tenant = await createTenant(app.db, 'Events');
    const user = await createUser(app.db, tenant, { scopes: ['svcpay:read', 'svcpay:write', 'webhooks:admin'] });
    const client = await holdStepUp(app, await signIn(app, user.email, user.password));
    const endpoint = await client.post('/api/webhook-endpoints', {
      url: receiver.url,
      events: ['claim.paid', 'remittance.posted'],
    });
    expect(endpoint.status).toBe(201);
    const lines: LineSpec[] = [{ procedureCode: '99213', chargeCents: 15_000, adjustments: [] }];
    const paid = await createClaim(app.db, tenant, { lines: [{ procedureCode: '99213', chargeCents: 15_000 }] });
    const full = await createClaim(app.db, tenant, { lines: [{ procedureCode: '99213', chargeCents: 15_000 }] });
    // The second CLP would take this claim past the per-claim cap: the whole 835 rolls back (422).
    await app.db.claim.update({ where: { id: full.id }, data: { paidCents: BigInt(MAX_AMOUNT_CENTS) } });
    const rolledBack = await client.post('/api/remittances', {
      x12: x12Of(remittanceOf([claimPayment(paid.id, '1', lines), claimPayment(full.id, '1', lines)])),
    });
    expect(rolledBack.status, rolledBack.text).toBe(422);
    expect(await app.db.outboundEvent.count({ where: { clinicId: tenant.clinicId } })).toBe(0);

    const posted = await client.post('/api/remittances', {
      x12: x12Of(remittanceOf([claimPayment(paid.id, '1', lines)])),
    });
    expect(posted.status, posted.text).toBe(200);
    const mine = () => receiver.delivered().filter((r) => r.envelope.clinicId === tenant.clinicId);
    const got = await until(mine, (r) => r.length >= 2);
    expect(got.map((r) => [r.envelope.type, r.envelope.data.claimId ?? r.envelope.data.remittanceId])).toEqual([
      ['claim.paid', paid.id],
      ['remittance.posted', posted.body.remittances[0].remittanceId],
    ]);
    expect(got[0]!.envelope.data).toMatchObject({ paidCents: 15_000, chargeCents: 15_000 });
    await sleep(1500);
    expect(mine()).toHaveLength(2);
    expect(receiver.received.some((r) => r.envelope?.data?.claimId === full.id)).toBe(false);
  });
});

describe('the changelog and the OpenAPI document', () => {
  it('serves CHANGELOG.md as JSON without a session, naming the new operations; OpenAPI describes the event', async () => {
    const res = await fetch(`${app.url}/api/changelog`);
    expect(res.status).toBe(200);
    const { entries } = (await res.json()) as { entries: { version: string; date: string | null; added: string[] }[] };
    expect(entries[0]).toMatchObject({ version: 'Unreleased', date: null });
    expect(entries[0]!.added.join('\n')).toContain('`POST /api/webhook-endpoints/{id}/rotate-secret`');
    expect(entries.at(-1)).toMatchObject({ version: '0.1.0', date: '2026-11-28' });
    const openapi = (await (await fetch(`${app.url}/api/openapi.json`)).json()) as any;
    expect(openapi.webhooks.event.post.requestBody.content['application/json'].schema.properties.type.enum).toContain(
      'claim.denied',
    );
  });
});

describe('production', () => {
  let prod: TestApp;
  let client: HttpClient;
  beforeAll(async () => {
    prod = await startApp({ env: { SVC_ENV: 'production' } });
    const tenant = await createTenant(prod.db, 'Prod');
    const user = await createUser(prod.db, tenant, { scopes: ['webhooks:admin'] });
    client = await holdStepUp(prod, await signIn(prod, user.email, user.password));
  }, 120_000);
  afterAll(async () => prod?.stop());

  it('refuses http, loopback, private, link-local and metadata addresses (400, nothing stored)', async () => {
    for (const url of [
      receiver.url,
      'https://127.0.0.1/hooks',
      'https://[::1]/hooks',
      'https://localhost/hooks',
      'https://10.1.2.3/hooks',
      'https://192.168.0.10/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://[::ffff:127.0.0.1]/hooks',
    ]) {
      const res = await client.post('/api/webhook-endpoints', { url, events: ['*'] });
      expect(res.status, url).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    expect(await prod.db.webhookEndpoint.count()).toBe(0);
  });
});
