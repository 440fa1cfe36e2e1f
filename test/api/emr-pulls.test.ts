// SMART Backend Services and partner pulls against the fake EMR: the signed client assertion, paging through
// next links, `_lastUpdated` bounds, one all-or-nothing upsert (an EMR failure on the 4th type or a store failure
// mid-write leaves nothing), idempotent re-pulls and concurrent pulls, the JWK Set that verifies our assertions,
// and the fail-closed 501s with zero calls to the EMR and nothing written.
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  exportPKCS8,
  exportSPKI,
  generateKeyPair,
  jwtVerify,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedId } from '@/lib/fhir/served-resource';
import { startFakeEmr, type FakeEmr } from '../fakes/fake-emr';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { holdStepUp } from '../support/step-up-claim';
import { createTenant, createUser, TEST_PASSWORD, uid } from '../support/factories';

const CLIENT_ID = 'backend-client';
const KEY_ID = 'key-2026-11';
const PARTNER_KEY = 'partner-secret-key';
const ALL = { Patient: 2, Encounter: 4, Observation: 6, Condition: 3, MedicationRequest: 3, AllergyIntolerance: 2 };
const NONE = { Patient: 0, Encounter: 0, Observation: 0, Condition: 0, MedicationRequest: 0, AllergyIntolerance: 0 };
const NEUTRAL = 'The EMR could not be reached; try again later';
// Clinics the operator bound before start: to the whole population ("*") and to a partner account each.
const BOUND = Array.from({ length: 24 }, () => uid('clinic'));
let nextBound = 0;

let emr: FakeEmr;
let app: TestApp;
let privateKeyPem: string;

beforeAll(async () => {
  const pair = await generateKeyPair('RS384', { extractable: true });
  privateKeyPem = await exportPKCS8(pair.privateKey);
  emr = await startFakeEmr({
    clientId: CLIENT_ID,
    publicKeyPem: await exportSPKI(pair.publicKey),
    keyId: KEY_ID,
    apiKey: PARTNER_KEY,
    pageSize: 2,
  });
  app = await startApp({
    env: {
      SMART_CLIENT_ID: CLIENT_ID,
      SMART_PRIVATE_KEY: privateKeyPem,
      SMART_KEY_ID: KEY_ID,
      EMR_VENDORS: JSON.stringify({
        'smart-backend': {
          tokenUrl: emr.tokenUrl,
          fhirBaseUrl: emr.fhirBaseUrl,
          groups: Object.fromEntries(BOUND.map((id) => [id, '*'])),
        },
      }),
      PARTNER_API_URL: emr.fhirBaseUrl,
      PARTNER_API_KEY: PARTNER_KEY,
      PARTNER_API_ACCOUNTS: JSON.stringify(Object.fromEntries(BOUND.map((id) => [id, `acct-${id}`]))),
    },
  });
});
afterAll(async () => {
  await app?.stop();
  await emr?.close();
});

/** A fresh bound clinic with an integrations admin and a smart-backend connection, so row counts are its own. */
async function freshClinic(target: TestApp = app) {
  const tenant = await createTenant(target.db, 'Pull', { clinicId: BOUND[nextBound++]! });
  const user = await createUser(target.db, tenant);
  const client = await signIn(target, user.email, TEST_PASSWORD);
  const created = await (
    await holdStepUp(target, client)
  ).post('/api/emr-sync/connections', { vendor: 'smart-backend' });
  expect(created.status).toBe(201);
  return { tenant, client, connectionId: created.body.connection.id as string };
}

const pullBody = (res: { body: unknown }) =>
  res.body as {
    ok: boolean;
    upserted: Record<string, number>;
    fhirStore: string;
    syncRunId: string;
    nextSince: string;
  };

describe('POST /api/emr-sync/smart/pull', () => {
  it('authenticates with a signed assertion, follows next links and upserts every type', async () => {
    const { tenant, client, connectionId } = await freshClinic();
    const [tokens, searches] = [emr.receivedTokenRequests.length, emr.receivedSearches.length];
    const res = await client.post('/api/emr-sync/smart/pull', { connectionId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      upserted: ALL,
      deleted: { Patient: 0, Encounter: 0, Observation: 0, Condition: 0, MedicationRequest: 0, AllergyIntolerance: 0 },
      fhirStore: 'embedded',
      syncRunId: expect.any(String),
      nextSince: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });

    // SMART Backend Services token request with a private_key_jwt assertion.
    const sent = emr.receivedTokenRequests.slice(tokens);
    expect(sent).toEqual([
      {
        grant_type: 'client_credentials',
        scope:
          'system/Patient.read system/Encounter.read system/Observation.read system/Condition.read system/MedicationRequest.read system/AllergyIntolerance.read',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: expect.any(String),
      },
    ]);
    expect(decodeProtectedHeader(sent[0]!.client_assertion!)).toEqual({ alg: 'RS384', kid: KEY_ID, typ: 'JWT' });
    const claims = decodeJwt(sent[0]!.client_assertion!);
    expect(claims).toEqual({
      iss: CLIENT_ID,
      sub: CLIENT_ID,
      aud: emr.tokenUrl,
      jti: expect.any(String),
      iat: expect.any(Number),
      exp: expect.any(Number),
    });
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(300);

    // Every type searched, pages of 2 followed to the end (6 observations: 3 pages), no lower bound without since.
    const seen = emr.receivedSearches.slice(searches);
    const pagesOf = (type: string) => seen.filter((s) => s.path === `/fhir/${type}`).length;
    expect(Object.fromEntries(Object.keys(ALL).map((t) => [t, pagesOf(t)]))).toEqual({
      Patient: 1,
      Encounter: 2,
      Observation: 3,
      Condition: 2,
      MedicationRequest: 2,
      AllergyIntolerance: 1,
    });
    expect(seen.every((s) => !s.query.has('_lastUpdated'))).toBe(true);

    const rows = await app.db.fhirResource.findMany({ where: { clinicId: tenant.clinicId } });
    expect(rows).toHaveLength(20);
    expect(
      rows.every((r) => r.versionId === 1 && (r.resource as { meta: { versionId: string } }).meta.versionId === '1'),
    ).toBe(true);
    // Stored per source, under the served id (DECISIONS "Trust boundaries"); the EMR's own id stays in meta.source.
    const pat2 = rows.find((r) => r.resourceId === servedId(emr.fhirBaseUrl, 'pat-2'))!;
    expect(pat2.source).toBe(emr.fhirBaseUrl);
    expect(pat2.resource).toMatchObject({
      resourceType: 'Patient',
      id: servedId(emr.fhirBaseUrl, 'pat-2'),
      name: [{ family: 'Sampleton', given: ['Jordan'] }],
      meta: { versionId: '1', source: `${emr.fhirBaseUrl}/Patient/pat-2/_history/3` },
    });
    const run = await app.db.syncRun.findUniqueOrThrow({ where: { id: pullBody(res).syncRunId } });
    expect(run).toMatchObject({
      clinicId: tenant.clinicId,
      connectionId,
      kind: 'smart-backend',
      status: 'succeeded',
      correlationId: res.headers.get('x-correlation-id'),
      cursor: pullBody(res).nextSince,
    });
  });

  it('is idempotent: a second pull rewrites nothing and every version stays 1', async () => {
    const { tenant, client, connectionId } = await freshClinic();
    await client.post('/api/emr-sync/smart/pull', { connectionId });
    const before = await app.db.fhirResource.findMany({ where: { clinicId: tenant.clinicId }, orderBy: { id: 'asc' } });
    const again = await client.post('/api/emr-sync/smart/pull', { connectionId });
    expect(again.status).toBe(200);
    expect(pullBody(again).upserted).toEqual(ALL);
    const after = await app.db.fhirResource.findMany({ where: { clinicId: tenant.clinicId }, orderBy: { id: 'asc' } });
    expect(after).toEqual(before);
  });

  it('leaves one row per resource after 5 concurrent pulls of the same connection', async () => {
    const { tenant, client, connectionId } = await freshClinic();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => client.post('/api/emr-sync/smart/pull', { connectionId })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const rows = await app.db.fhirResource.groupBy({
      by: ['resourceType', 'resourceId'],
      where: { clinicId: tenant.clinicId },
      _count: true,
      _max: { versionId: true },
    });
    expect(rows).toHaveLength(20);
    expect(rows.every((r) => r._count === 1 && r._max.versionId === 1)).toBe(true);
  });

  it('sends since as _lastUpdated=ge{since} on every search and page', async () => {
    const { client, connectionId } = await freshClinic();
    const searches = emr.receivedSearches.length;
    const res = await client.post('/api/emr-sync/smart/pull', { connectionId, since: '2024-06-01T00:00:00Z' });
    expect(res.status).toBe(200);
    expect(pullBody(res).upserted).toEqual({
      Patient: 1,
      Encounter: 1,
      Observation: 1,
      Condition: 1,
      MedicationRequest: 1,
      AllergyIntolerance: 1,
    });
    const seen = emr.receivedSearches.slice(searches);
    expect(seen.length).toBe(6);
    expect(seen.every((s) => s.query.getAll('_lastUpdated').join() === 'ge2024-06-01T00:00:00Z')).toBe(true);
  });

  it('writes nothing when the EMR fails on the 4th resource type', async () => {
    const { tenant, client, connectionId } = await freshClinic();
    emr.failNext('/fhir/Condition', 500);
    const res = await client.post('/api/emr-sync/smart/pull', { connectionId });
    expect(res.status).toBe(502);
    // The neutral message: the EMR's status stays in the log.
    expect(res.body).toEqual({ code: 'TRANSPORT_FAILED', message: NEUTRAL, correlationId: expect.any(String) });
    expect(await app.db.fhirResource.count({ where: { clinicId: tenant.clinicId } })).toBe(0);
    expect(await app.db.syncRun.findFirst({ where: { clinicId: tenant.clinicId } })).toMatchObject({
      status: 'failed',
      counts: { error: 'TRANSPORT_FAILED' },
    });
  });

  it('writes nothing when the store fails in the middle of the upsert (503)', async () => {
    const { tenant, client, connectionId } = await freshClinic();
    // A real database failure inside the pull's transaction, after Patient..Condition rows were inserted.
    await app.db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION refuse_medication() RETURNS trigger AS $$ BEGIN
      IF NEW."clinicId" = '${tenant.clinicId}' AND NEW."resourceType" = 'MedicationRequest' THEN RAISE EXCEPTION 'store refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await app.db.$executeRawUnsafe(
      `CREATE TRIGGER refuse_medication BEFORE INSERT ON "FhirResource" FOR EACH ROW EXECUTE FUNCTION refuse_medication()`,
    );
    try {
      const res = await client.post('/api/emr-sync/smart/pull', { connectionId });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        code: 'DEPENDENCY_UNAVAILABLE',
        message: 'The FHIR store is unavailable; nothing was saved',
        correlationId: expect.any(String),
      });
      expect(await app.db.fhirResource.count({ where: { clinicId: tenant.clinicId } })).toBe(0);
    } finally {
      await app.db.$executeRawUnsafe('DROP TRIGGER refuse_medication ON "FhirResource"');
    }
  });

  it('answers 502 when the token endpoint fails, and searches nothing', async () => {
    const { client, connectionId } = await freshClinic();
    emr.failNext('/oauth/token', 503);
    const searches = emr.receivedSearches.length;
    const res = await client.post('/api/emr-sync/smart/pull', { connectionId });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ code: 'TRANSPORT_FAILED', message: NEUTRAL, correlationId: expect.any(String) });
    // The correlation id is a random UUID, which holds `503` in about one answer of 140.
    expect(res.text.replace(res.body.correlationId, '')).not.toContain('503');
    expect(emr.receivedSearches.length).toBe(searches);
  });

  it('refuses a bad, foreign or non-backend connection before calling the EMR', async () => {
    const { client } = await freshClinic();
    const browser = await (
      await holdStepUp(app, client)
    ).post('/api/emr-sync/connections', { vendor: 'browser-oauth', clientId: 'x' });
    const south = await signIn(app, 'admin@southside.test');
    const foreign = await (await holdStepUp(app, south)).post('/api/emr-sync/connections', { vendor: 'smart-backend' });
    const invalid = (message: string) => ({
      code: 'VALIDATION_FAILED',
      message: 'The request body is not valid',
      correlationId: expect.any(String),
      issues: [{ path: 'body.connectionId', message }],
    });
    const cases: Array<[unknown, number, unknown]> = [
      [
        {},
        400,
        { ...invalid('Invalid input: expected string, received undefined'), message: 'The request body is not valid' },
      ],
      [{ connectionId: 'emr_nope' }, 400, invalid('No such connection')],
      [{ connectionId: browser.body.connection.id }, 400, invalid('Not a smart-backend connection')],
      [
        { connectionId: foreign.body.connection.id },
        403,
        { code: 'FORBIDDEN', message: 'This connection belongs to another clinic', correlationId: expect.any(String) },
      ],
      [
        { connectionId: foreign.body.connection.id, since: 'yesterday' },
        400,
        {
          code: 'VALIDATION_FAILED',
          message: 'The request body is not valid',
          correlationId: expect.any(String),
          issues: [{ path: 'body.since', message: 'since must be an ISO-8601 date or instant with a zone' }],
        },
      ],
    ];
    const calls = emr.requests.total;
    for (const [body, status, expected] of cases) {
      const res = await client.post('/api/emr-sync/smart/pull', body);
      expect({ body, status: res.status, response: res.body }).toEqual({ body, status, response: expected });
    }
    expect(emr.requests.total).toBe(calls);
  });

  it('needs integrations:read and a session', async () => {
    const frontdesk = await signIn(app, 'frontdesk@northside.test');
    for (const path of ['/api/emr-sync/smart/pull', '/api/emr-sync/partner/pull']) {
      const denied = await frontdesk.post(path, { connectionId: 'x', date: '2024-03-02' });
      expect(denied.body).toEqual({
        code: 'SCOPE_MISSING',
        message: 'This action needs the integrations:read scope',
        correlationId: expect.any(String),
      });
      const anonymous = await new HttpClient(app.url).post(path, { connectionId: 'x', date: '2024-03-02' });
      expect([anonymous.status, anonymous.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    }
  });
});

describe('POST /api/emr-sync/partner/pull', () => {
  it("pulls one of the clinic's days (New York) with the partner key and upserts it", async () => {
    const { tenant, client } = await freshClinic();
    const searches = emr.receivedSearches.length;
    const res = await client.post('/api/emr-sync/partner/pull', { date: '2024-03-02' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      range: { from: '2024-03-02T05:00:00.000Z', to: '2024-03-03T04:59:59.999Z' },
      upserted: { Patient: 0, Encounter: 1, Observation: 1, Condition: 1, MedicationRequest: 1, AllergyIntolerance: 0 },
      deleted: { Patient: 0, Encounter: 0, Observation: 0, Condition: 0, MedicationRequest: 0, AllergyIntolerance: 0 },
      fhirStore: 'embedded',
      syncRunId: expect.any(String),
      nextSince: expect.any(String),
    });
    const seen = emr.receivedSearches.slice(searches);
    expect(seen.map((s) => s.query.getAll('_lastUpdated'))).toEqual(
      Array(6).fill(['ge2024-03-02T05:00:00.000Z', 'le2024-03-03T04:59:59.999Z']),
    );
    expect(seen.map((s) => s.partnerAccount)).toEqual(Array(6).fill(`acct-${tenant.clinicId}`));
    expect(
      (await app.db.fhirResource.findMany({ where: { clinicId: tenant.clinicId } })).map((r) => r.resourceId).sort(),
    ).toEqual(['cond-2', 'enc-2', 'medrx-2', 'obs-3'].map((id) => servedId(emr.fhirBaseUrl, id)).sort());
    expect(await app.db.syncRun.findFirst({ where: { clinicId: tenant.clinicId } })).toMatchObject({
      kind: 'partner-api',
      connectionId: null,
      status: 'succeeded',
    });
  });

  it('pulls a from/to range (dates are whole days at the clinic, instants exact)', async () => {
    const { client } = await freshClinic();
    const days = await client.post('/api/emr-sync/partner/pull', { from: '2024-01-01', to: '2024-01-31' });
    expect(days.body.range).toEqual({ from: '2024-01-01T05:00:00.000Z', to: '2024-02-01T04:59:59.999Z' });
    expect(days.body.upserted).toEqual({
      Patient: 1,
      Encounter: 1,
      Observation: 1,
      Condition: 1,
      MedicationRequest: 1,
      AllergyIntolerance: 1,
    });
    const instants = await client.post('/api/emr-sync/partner/pull', {
      from: '2024-06-20T14:30:00Z',
      to: '2024-06-20T14:35:00+00:00',
    });
    expect(instants.body.range).toEqual({ from: '2024-06-20T14:30:00.000Z', to: '2024-06-20T14:35:00.000Z' });
    expect(instants.body.upserted).toEqual({ ...NONE, Patient: 1, AllergyIntolerance: 1 });
  });

  it.each([
    [{}, [{ path: 'body.date', message: 'Give either date, or from and to' }]],
    [
      { date: '2024-03-02', from: '2024-03-01', to: '2024-03-03' },
      [{ path: 'body.date', message: 'Give either date, or from and to' }],
    ],
    [{ from: '2024-03-01' }, [{ path: 'body.to', message: 'from and to go together' }]],
    [{ from: '2024-03-05', to: '2024-03-01' }, [{ path: 'body.from', message: 'from must not be after to' }]],
    [{ from: '2024-01-01', to: '2024-02-01' }, [{ path: 'body.to', message: 'The range may span at most 31 days' }]],
    [{ date: '03/02/2024' }, [{ path: 'body.date', message: 'date must be YYYY-MM-DD' }]],
    [
      { from: '2024-03-01T10:00:00', to: '2024-03-02' },
      [{ path: 'body.from', message: 'Must be an ISO-8601 date or instant with a zone' }],
    ],
  ])('refuses %j with 400 and calls nothing', async (body, issues) => {
    const client = await signIn(app, 'admin@northside.test');
    const calls = emr.requests.total;
    const res = await client.post('/api/emr-sync/partner/pull', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The request body is not valid',
      correlationId: expect.any(String),
      issues,
    });
    expect(emr.requests.total).toBe(calls);
  });
});

describe('GET /.well-known/jwks.json', () => {
  it('publishes the public key that verifies our client assertions, and nothing private', async () => {
    const res = await new HttpClient(app.url).get('/.well-known/jwks.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/jwk-set+json');
    expect(res.body).toEqual({
      keys: [{ kty: 'RSA', n: expect.any(String), e: 'AQAB', kid: KEY_ID, alg: 'RS384', use: 'sig' }],
    });
    const { client, connectionId } = await freshClinic();
    await client.post('/api/emr-sync/smart/pull', { connectionId });
    const assertion = emr.receivedTokenRequests.at(-1)!.client_assertion!;
    const { payload } = await jwtVerify(assertion, createLocalJWKSet(res.body), {
      issuer: CLIENT_ID,
      audience: emr.tokenUrl,
    });
    expect(payload.sub).toBe(CLIENT_ID);
  });
});

describe('fail-closed without SMART or partner credentials', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await startApp({
      env: {
        EMR_VENDORS: JSON.stringify({ 'smart-backend': { tokenUrl: emr.tokenUrl, fhirBaseUrl: emr.fhirBaseUrl } }),
      },
    });
  });
  afterAll(async () => {
    await bare?.stop();
  });

  it('answers 501 to both pulls with zero calls to the EMR and nothing written', async () => {
    const { tenant, client, connectionId } = await freshClinic(bare);
    const calls = emr.requests.total;
    const smart = await client.post('/api/emr-sync/smart/pull', { connectionId });
    expect(smart.status).toBe(501);
    expect(smart.body).toEqual({
      code: 'NOT_CONFIGURED',
      message: 'SMART Backend Services is not configured',
      correlationId: expect.any(String),
    });
    // Refused before the connection is even read: an unknown id gets the same answer.
    expect((await client.post('/api/emr-sync/smart/pull', { connectionId: 'emr_unknown' })).status).toBe(501);
    const partner = await client.post('/api/emr-sync/partner/pull', { date: '2024-03-02' });
    expect(partner.status).toBe(501);
    expect(partner.body).toEqual({
      code: 'NOT_CONFIGURED',
      message: 'The partner API is not configured',
      correlationId: expect.any(String),
    });
    expect(emr.requests.total).toBe(calls);
    expect(await bare.db.fhirResource.count()).toBe(0);
    expect(await bare.db.syncRun.count({ where: { clinicId: tenant.clinicId } })).toBe(0);
  });

  it('answers 404 for the JWK Set: there is no key to publish', async () => {
    const res = await new HttpClient(bare.url).get('/.well-known/jwks.json');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 'NOT_FOUND',
      message: 'No signing key is configured',
      correlationId: expect.any(String),
    });
  });
});
