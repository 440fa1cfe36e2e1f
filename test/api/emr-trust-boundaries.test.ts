// Issue #11 items 5-7 over HTTP (DECISIONS "Trust boundaries"): platform credentials and the tokens they buy go only
// to the operator's EMR; tenant-chosen URLs pass the egress policy (public addresses only in production unless
// EMR_ALLOWED_ORIGINS lists them, no redirects, capped bodies, one timeout, a neutral message); and a pull reads only
// what the operator bound to the clinic. "Zero calls" is counted in TCP connections at the fake.
import fs from 'node:fs';
import path from 'node:path';
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedId } from '@/lib/fhir/served-resource';
import { startFakeEmr, type FakeEmr } from '../fakes/fake-emr';
import { startApp, type TestApp } from '../support/app';
import { createTenant, createUser, TEST_PASSWORD, uid } from '../support/factories';
import { signIn, type HttpClient } from '../support/http';
import { holdStepUp } from '../support/step-up-claim';

const CLIENT_ID = 'backend-client';
const KEY_ID = 'key-1';
const PARTNER_KEY = 'partner-secret-key';
const NEUTRAL = {
  code: 'TRANSPORT_FAILED',
  message: 'The EMR could not be reached; try again later',
  correlationId: expect.any(String),
};
const NOT_LINKED = {
  code: 'FORBIDDEN',
  message: 'This clinic is not linked to that integration',
  correlationId: expect.any(String),
};
const TYPES = ['Patient', 'Encounter', 'Observation', 'Condition', 'MedicationRequest', 'AllergyIntolerance'] as const;

/** From the fixture files themselves: the ids of each type that belong to one patient. */
function fixtureIdsOf(patientId: string): Record<string, string[]> {
  const read = (type: string) =>
    JSON.parse(fs.readFileSync(path.resolve('test/fakes/fixtures/emr', `${type}.json`), 'utf8')) as Array<{
      id: string;
      subject?: { reference: string };
      patient?: { reference: string };
    }>;
  return Object.fromEntries(
    TYPES.map((type) => [
      type,
      read(type)
        .filter((r) =>
          type === 'Patient' ? r.id === patientId : (r.subject ?? r.patient)?.reference === `Patient/${patientId}`,
        )
        .map((r) => r.id)
        .sort(),
    ]),
  );
}

describe('sandbox: bindings, the smart-backend origin rule and the egress policy', () => {
  let emr: FakeEmr;
  let attacker: FakeEmr;
  let elsewhere: FakeEmr;
  let app: TestApp;
  const clinics = { north: uid('clinic'), south: uid('clinic'), everything: uid('clinic') };
  const admins = {} as Record<keyof typeof clinics, HttpClient>;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS384', { extractable: true });
    emr = await startFakeEmr({
      clientId: CLIENT_ID,
      publicKeyPem: await exportSPKI(pair.publicKey),
      keyId: KEY_ID,
      apiKey: PARTNER_KEY,
      pageSize: 2,
    });
    // The attacker's server serves a SMART configuration naming the real EMR's token endpoint.
    attacker = await startFakeEmr({
      clientId: 'clinic-app',
      smartConfigurationOverrides: { token_endpoint: emr.tokenUrl },
    });
    elsewhere = await startFakeEmr();
    app = await startApp({
      env: {
        SMART_CLIENT_ID: CLIENT_ID,
        SMART_PRIVATE_KEY: await exportPKCS8(pair.privateKey),
        SMART_KEY_ID: KEY_ID,
        EMR_VENDORS: JSON.stringify({
          'smart-backend': {
            tokenUrl: emr.tokenUrl,
            fhirBaseUrl: emr.fhirBaseUrl,
            groups: { [clinics.north]: 'grp-north', [clinics.south]: 'grp-south', [clinics.everything]: '*' },
          },
        }),
        PARTNER_API_URL: emr.fhirBaseUrl,
        PARTNER_API_KEY: PARTNER_KEY,
        PARTNER_API_ACCOUNTS: JSON.stringify({ [clinics.north]: 'acct-north-7' }),
        LOG_LEVEL: 'info',
      },
    });
    for (const name of Object.keys(clinics) as Array<keyof typeof clinics>)
      admins[name] = (await clinicAdmin(clinics[name])).client;
  });
  afterAll(async () => {
    await app?.stop();
    for (const fake of [emr, attacker, elsewhere]) await fake?.close();
  });

  async function clinicAdmin(clinicId?: string) {
    const tenant = await createTenant(app.db, 'Trust', clinicId ? { clinicId } : {});
    const user = await createUser(app.db, tenant);
    return { tenant, client: await signIn(app, user.email, TEST_PASSWORD) };
  }

  it('refuses a smart-backend connection whose fhirBaseUrl is not on the operator EMR, at create and at PATCH', async () => {
    const client = admins.north;
    const refused = {
      code: 'VALIDATION_FAILED',
      message: 'The request body is not valid',
      correlationId: expect.any(String),
      issues: [{ path: 'body.fhirBaseUrl', message: "Must be on the configured SMART backend EMR's server" }],
    };
    const created = await (
      await holdStepUp(app, client)
    ).post('/api/emr-sync/connections', {
      vendor: 'smart-backend',
      fhirBaseUrl: attacker.fhirBaseUrl,
    });
    expect([created.status, created.body]).toEqual([400, refused]);
    expect(await app.db.emrConnection.count({ where: { clinicId: clinics.north } })).toBe(0);

    const same = await (
      await holdStepUp(app, client)
    ).post('/api/emr-sync/connections', {
      vendor: 'smart-backend',
      fhirBaseUrl: `${emr.baseUrl}/fhir/other-path`,
    });
    expect(same.status).toBe(201);
    const patched = await client.patch(`/api/emr-sync/connections/${same.body.connection.id}`, {
      fhirBaseUrl: attacker.fhirBaseUrl,
    });
    expect([patched.status, patched.body]).toEqual([400, refused]);
    expect(attacker.connections).toBe(0);
  });

  it('never sends the backend token to a FHIR base planted on a connection: 400, no token minted, zero calls to it', async () => {
    const client = admins.everything;
    const created = await (
      await holdStepUp(app, client)
    ).post('/api/emr-sync/connections', { vendor: 'smart-backend' });
    // A row written before the rule existed, pointing at the attacker.
    await app.db.emrConnection.update({
      where: { id: created.body.connection.id },
      data: { fhirBaseUrl: attacker.fhirBaseUrl },
    });
    const tokens = emr.requests.token;
    const res = await client.post('/api/emr-sync/smart/pull', { connectionId: created.body.connection.id });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([
      {
        path: 'body.connectionId',
        message: "The connection's FHIR base is not on the configured SMART backend EMR's server",
      },
    ]);
    expect(attacker.connections).toBe(0);
    expect(emr.requests.token).toBe(tokens);
  });

  it("answers an unbound clinic's SMART and partner pulls 403, with zero calls and nothing written", async () => {
    const { tenant, client } = await clinicAdmin();
    const created = await (
      await holdStepUp(app, client)
    ).post('/api/emr-sync/connections', { vendor: 'smart-backend', clientId: 'anything' });
    expect(created.body.connection.status).toBe('needs-registration');
    const connections = emr.connections;
    const smart = await client.post('/api/emr-sync/smart/pull', { connectionId: created.body.connection.id });
    expect([smart.status, smart.body]).toEqual([403, NOT_LINKED]);
    const partner = await client.post('/api/emr-sync/partner/pull', { date: '2024-03-02' });
    expect([partner.status, partner.body]).toEqual([403, NOT_LINKED]);
    expect(emr.connections).toBe(connections);
    expect(await app.db.syncRun.count({ where: { clinicId: tenant.clinicId } })).toBe(0);
    expect(await app.db.fhirResource.count({ where: { clinicId: tenant.clinicId } })).toBe(0);
  });

  it('lists a smart-backend connection as connected when its clinic is bound, else needs-registration', async () => {
    const unbound = (await clinicAdmin()).client;
    for (const [client, status] of [
      [admins.south, 'connected'],
      [unbound, 'needs-registration'],
    ] as const) {
      await (await holdStepUp(app, client)).post('/api/emr-sync/connections', { vendor: 'smart-backend' });
      const list = await client.get('/api/emr-sync/connections');
      expect(list.body.connections.map((c: { vendor: string; status: string }) => [c.vendor, c.status])).toEqual([
        ['smart-backend', status],
      ]);
    }
  });

  it("pulls only the bound Group's patients: each clinic gets its own patient's resources and nothing else", async () => {
    for (const [name, patientId, groupId] of [
      ['north', 'pat-1', 'grp-north'],
      ['south', 'pat-2', 'grp-south'],
    ] as const) {
      const [clinicId, session] = [clinics[name], admins[name]];
      const connectionId = (
        await (await holdStepUp(app, session)).post('/api/emr-sync/connections', { vendor: 'smart-backend' })
      ).body.connection.id;
      const [searches, reads] = [emr.receivedSearches.length, emr.requests.byPath[`/fhir/Group/${groupId}`] ?? 0];
      const res = await session.post('/api/emr-sync/smart/pull', { connectionId });
      expect(res.status).toBe(200);
      expect(emr.requests.byPath[`/fhir/Group/${groupId}`]).toBe(reads + 1);
      const rows = await app.db.fhirResource.findMany({ where: { clinicId } });
      const stored = Object.fromEntries(
        TYPES.map((type) => [
          type,
          rows
            .filter((r) => r.resourceType === type)
            .map((r) => r.resourceId)
            .sort(),
        ]),
      );
      const expected = Object.entries(fixtureIdsOf(patientId)).map(([type, ids]) => [
        type,
        ids.map((id) => servedId(emr.fhirBaseUrl, id)).sort(),
      ]);
      expect(stored).toEqual(Object.fromEntries(expected));
      // Patients by _id, the rest by patient: never a search that is not scoped to the Group's members.
      const seen = emr.receivedSearches.slice(searches).filter((s) => !s.query.has('_offset'));
      expect(seen.map((s) => [s.path, s.query.get('_id') ?? s.query.get('patient')])).toEqual(
        TYPES.map((type) => [`/fhir/${type}`, patientId]),
      );
    }
  });

  it("sends the clinic's partner account on every partner request", async () => {
    const client = admins.north;
    const searches = emr.receivedSearches.length;
    const res = await client.post('/api/emr-sync/partner/pull', { from: '2024-01-01', to: '2024-01-31' });
    expect(res.status).toBe(200);
    const seen = emr.receivedSearches.slice(searches);
    expect(seen.length).toBeGreaterThanOrEqual(6);
    expect(seen.every((s) => s.partnerAccount === 'acct-north-7')).toBe(true);
  });

  describe('a browser connection with its own FHIR base', () => {
    async function authorizeAgainst(fhirBaseUrl: string) {
      const { client } = await clinicAdmin();
      const created = await (
        await holdStepUp(app, client)
      ).post('/api/emr-sync/connections', {
        vendor: 'generic-fhir',
        clientId: 'clinic-app',
        fhirBaseUrl,
      });
      expect(created.status).toBe(201);
      return client.get(`/api/emr-sync/authorize?connectionId=${created.body.connection.id}`);
    }

    it('does not follow a redirect from discovery: the redirect target is never contacted', async () => {
      attacker.failNext('/fhir/.well-known/smart-configuration', {
        redirectTo: `${elsewhere.fhirBaseUrl}/.well-known/smart-configuration`,
      });
      const res = await authorizeAgainst(attacker.fhirBaseUrl);
      expect([res.status, res.body]).toEqual([502, NEUTRAL]);
      expect(elsewhere.connections).toBe(0);
    });

    it('refuses an oversized discovery document', async () => {
      attacker.failNext('/fhir/.well-known/smart-configuration', { oversizedBytes: 2 * 1024 * 1024 });
      const res = await authorizeAgainst(attacker.fhirBaseUrl);
      expect([res.status, res.body]).toEqual([502, NEUTRAL]);
    });

    it('says the same neutral sentence for an error status, with no upstream status or text, and logs the detail as JSON', async () => {
      attacker.failNext('/fhir/.well-known/smart-configuration', 418);
      const res = await authorizeAgainst(attacker.fhirBaseUrl);
      expect([res.status, res.body]).toEqual([502, NEUTRAL]);
      const correlationId = res.body.correlationId as string;
      // Without the correlation id: a random UUID, which holds `418` in about one answer of 140.
      expect(res.text.replace(correlationId, '')).not.toMatch(/418|simulated failure/);
      // The server's log reaches us through its stdout pipe, which may deliver the line after the response.
      const findLine = () =>
        app
          .logs()
          .split('\n')
          .find((l) => l.includes(correlationId) && l.includes('"cause"'));
      for (let tries = 0; !findLine() && tries < 100; tries++) await new Promise((r) => setTimeout(r, 20));
      const line = findLine();
      expect(line).toBeDefined();
      expect(JSON.parse(line!).cause).toMatchObject({
        purpose: 'emr',
        reason: 'status',
        status: 418,
        url: `${attacker.fhirBaseUrl}/.well-known/smart-configuration`,
      });
      expect(app.logs()).not.toContain('[object Object]');
    });

    it('times out a discovery that stalls mid-body', async () => {
      attacker.failNext('/fhir/.well-known/smart-configuration', 'stall');
      const started = Date.now();
      const res = await authorizeAgainst(attacker.fhirBaseUrl);
      expect([res.status, res.body]).toEqual([502, NEUTRAL]);
      expect(Date.now() - started).toBeLessThan(20_000);
    }, 30_000);
  });
});

describe('production: a tenant URL must resolve to a public address unless the operator listed its origin', () => {
  let app: TestApp;
  let privateEmr: FakeEmr;
  let listedEmr: FakeEmr;

  beforeAll(async () => {
    privateEmr = await startFakeEmr({ clientId: 'clinic-app' });
    listedEmr = await startFakeEmr({ clientId: 'clinic-app' });
    app = await startApp({
      env: { SVC_ENV: 'production', EMR_ALLOWED_ORIGINS: `https://127.0.0.1:${new URL(listedEmr.baseUrl).port}` },
    });
  });
  afterAll(async () => {
    await app?.stop();
    await privateEmr?.close();
    await listedEmr?.close();
  });

  async function authorizeAgainst(fhirBaseUrl: string) {
    const tenant = await createTenant(app.db, 'Prod');
    const client = await signIn(app, (await createUser(app.db, tenant)).email, TEST_PASSWORD);
    const created = await (
      await holdStepUp(app, client)
    ).post('/api/emr-sync/connections', {
      vendor: 'generic-fhir',
      clientId: 'clinic-app',
      fhirBaseUrl,
    });
    expect(created.status).toBe(201);
    return client.get(`/api/emr-sync/authorize?connectionId=${created.body.connection.id}`);
  }

  it('refuses a FHIR base on loopback (by address or by name) with zero connections to it', async () => {
    const port = new URL(privateEmr.baseUrl).port;
    for (const base of [
      `https://127.0.0.1:${port}/fhir`,
      `https://localhost:${port}/fhir`,
      `https://[::ffff:127.0.0.1]:${port}/fhir`,
    ]) {
      const res = await authorizeAgainst(base);
      expect({ base, status: res.status, body: res.body }).toEqual({ base, status: 502, body: NEUTRAL });
    }
    expect(privateEmr.connections).toBe(0);
  });

  it('connects to a private address whose origin EMR_ALLOWED_ORIGINS lists (the fake speaks no TLS, so it still fails)', async () => {
    const res = await authorizeAgainst(`https://127.0.0.1:${new URL(listedEmr.baseUrl).port}/fhir`);
    expect([res.status, res.body]).toEqual([502, NEUTRAL]);
    expect(listedEmr.connections).toBeGreaterThanOrEqual(1);
  });
});
