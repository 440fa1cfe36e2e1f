// EMR connections over HTTP: clinic-bound create, list and client-id registration; reads never carry a client
// id, secret or token; canAuthorize follows DECISIONS; another clinic's connection is not found.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seal } from '@/lib/crypto/seal';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { holdStepUp } from '../support/step-up-claim';

const VENDORS = {
  'browser-oauth': {
    authorizeUrl: 'https://emr.example/oauth/authorize',
    tokenUrl: 'https://emr.example/oauth/token',
    fhirBaseUrl: 'https://emr.example/fhir',
  },
  'generic-fhir': { tokenUrl: 'https://generic.example/token' },
};

const connectionShape = (overrides: Record<string, unknown>) => ({
  id: expect.stringMatching(/^emr_/),
  name: null,
  lastError: null,
  lastRun: null,
  fhirBaseUrl: null,
  grantedScope: null,
  tokenExpiresAt: null,
  connectedAt: null,
  createdAt: expect.any(String),
  updatedAt: expect.any(String),
  ...overrides,
});

describe('EMR connections', () => {
  let app: TestApp;
  let admin: HttpClient;
  beforeAll(async () => {
    app = await startApp({ env: { EMR_VENDORS: JSON.stringify(VENDORS) } });
    admin = await signIn(app, 'admin@northside.test');
  });
  afterAll(async () => {
    await app?.stop();
  });
  // Creating a connection needs a step-up (DECISIONS "Security findings of 2026-11-28"); these tests are about
  // what a created connection is, so the admin holds a fresh claim in each.
  beforeEach(async () => {
    await holdStepUp(app, admin);
  });

  it('creates a pending connection from a client id, stores the id but never shows it', async () => {
    const res = await admin.post('/api/emr-sync/connections', {
      vendor: 'browser-oauth',
      clientId: 'northside-client-7731',
      clinicId: 'clinic_south',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      connection: connectionShape({
        vendor: 'browser-oauth',
        status: 'pending',
        canAuthorize: true,
        hasClientId: true,
      }),
    });
    expect(res.text).not.toContain('northside-client-7731');
    const row = await app.db.emrConnection.findUniqueOrThrow({ where: { id: res.body.connection.id } });
    // The clinic comes from the session; the body's clinicId is ignored.
    expect(row).toMatchObject({
      clinicId: 'clinic_north',
      vendor: 'browser-oauth',
      status: 'pending',
      clientId: 'northside-client-7731',
      accessTokenSealed: null,
    });
    const audit = await app.db.auditLog.findFirst({
      where: { action: 'emr.connection.create', detail: { path: ['connectionId'], equals: row.id } },
    });
    expect(audit).toMatchObject({
      outcome: 'success',
      clinicId: 'clinic_north',
      correlationId: res.headers.get('x-correlation-id'),
    });
  });

  it('creates a needs-registration connection without a client id, which cannot authorize', async () => {
    const res = await admin.post('/api/emr-sync/connections', { vendor: 'browser-oauth' });
    expect(res.status).toBe(201);
    expect(res.body.connection).toEqual(
      connectionShape({
        vendor: 'browser-oauth',
        status: 'needs-registration',
        canAuthorize: false,
        hasClientId: false,
      }),
    );
  });

  it('says canAuthorize only when the authorize endpoint is configured or discoverable', async () => {
    const cases = [
      [{ vendor: 'generic-fhir', clientId: 'c1' }, false], // entry without authorizeUrl
      [{ vendor: 'smart-backend', clientId: 'c1' }, false], // no entry at all
      [{ vendor: 'generic-fhir', clientId: 'c1', fhirBaseUrl: 'https://fhir.clinic.example/r4/' }, true], // SMART discovery
      [{ vendor: 'browser-oauth', clientId: 'c1' }, true],
    ] as const;
    for (const [body, expected] of cases) {
      const res = await admin.post('/api/emr-sync/connections', body);
      expect({ body, status: res.status, canAuthorize: res.body.connection.canAuthorize }).toEqual({
        body,
        status: 201,
        canAuthorize: expected,
      });
    }
    const withBase = await admin.post('/api/emr-sync/connections', {
      vendor: 'generic-fhir',
      fhirBaseUrl: 'https://fhir.clinic.example/r4/',
    });
    expect(withBase.body.connection.fhirBaseUrl).toBe('https://fhir.clinic.example/r4');
  });

  it.each([
    [
      {},
      [
        {
          path: 'body.vendor',
          message: 'vendor must be one of generic-fhir, browser-oauth, smart-backend, partner-api',
        },
      ],
    ],
    [
      { vendor: 'epic-scraper' },
      [
        {
          path: 'body.vendor',
          message: 'vendor must be one of generic-fhir, browser-oauth, smart-backend, partner-api',
        },
      ],
    ],
    [
      { vendor: 'generic-fhir', fhirBaseUrl: 'http://emr.example/fhir' },
      [{ path: 'body.fhirBaseUrl', message: 'Must be an absolute https URL without credentials, query or fragment' }],
    ],
    [
      { vendor: 'generic-fhir', fhirBaseUrl: 'https://emr.example/fhir?x=1' },
      [{ path: 'body.fhirBaseUrl', message: 'Must be an absolute https URL without credentials, query or fragment' }],
    ],
    [
      { vendor: 'generic-fhir', clientId: '' },
      [{ path: 'body.clientId', message: 'Too small: expected string to have >=1 characters' }],
    ],
  ])('refuses %j with VALIDATION_FAILED and creates nothing', async (body, issues) => {
    const before = await app.db.emrConnection.count();
    const res = await admin.post('/api/emr-sync/connections', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The request body is not valid',
      correlationId: expect.any(String),
      issues,
    });
    expect(await app.db.emrConnection.count()).toBe(before);
  });

  it("lists the clinic's connections newest first, without client ids, secrets or tokens", async () => {
    const south = await holdStepUp(app, await signIn(app, 'admin@southside.test'));
    const theirs = await south.post('/api/emr-sync/connections', {
      vendor: 'browser-oauth',
      clientId: 'southside-client',
    });
    const mine = await admin.post('/api/emr-sync/connections', {
      vendor: 'browser-oauth',
      clientId: 'northside-listed',
    });
    const sealKey = Buffer.from(TEST_SECRETS.SEAL_KEY, 'base64');
    const access = seal('raw-access-token-value', sealKey, `emr-access-token:${mine.body.connection.id}`);
    await app.db.emrConnection.update({
      where: { id: mine.body.connection.id },
      data: {
        status: 'connected',
        accessTokenSealed: access,
        refreshTokenSealed: access,
        grantedScope: 'patient/*.read',
        connectedAt: new Date('2026-01-02T03:04:05Z'),
        tokenExpiresAt: new Date('2026-01-02T04:04:05Z'),
      },
    });

    const res = await admin.get('/api/emr-sync/connections');
    expect(res.status).toBe(200);
    const ids = res.body.connections.map((c: { id: string }) => c.id);
    expect(ids[0]).toBe(mine.body.connection.id);
    expect(ids).not.toContain(theirs.body.connection.id);
    expect(res.body.connections[0]).toEqual(
      connectionShape({
        id: mine.body.connection.id,
        vendor: 'browser-oauth',
        status: 'connected',
        canAuthorize: true,
        hasClientId: true,
        grantedScope: 'patient/*.read',
        connectedAt: '2026-01-02T03:04:05.000Z',
        tokenExpiresAt: '2026-01-02T04:04:05.000Z',
      }),
    );
    for (const secret of ['northside-listed', 'raw-access-token-value', access]) expect(res.text).not.toContain(secret);
    const rows = await app.db.emrConnection.findMany({ where: { clinicId: 'clinic_north' } });
    expect(res.body.connections).toHaveLength(rows.length);
  });

  it('registers a client id with PATCH: needs-registration becomes pending', async () => {
    const created = await admin.post('/api/emr-sync/connections', { vendor: 'browser-oauth' });
    const res = await admin.patch(`/api/emr-sync/connections/${created.body.connection.id}`, {
      clientId: 'issued-later',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      connection: connectionShape({
        id: created.body.connection.id,
        vendor: 'browser-oauth',
        status: 'pending',
        canAuthorize: true,
        hasClientId: true,
      }),
    });
    expect(await app.db.emrConnection.findUniqueOrThrow({ where: { id: created.body.connection.id } })).toMatchObject({
      clientId: 'issued-later',
      status: 'pending',
    });
  });

  it('drops the tokens of a connected connection whose client id changes', async () => {
    const created = await admin.post('/api/emr-sync/connections', { vendor: 'browser-oauth', clientId: 'old-client' });
    await app.db.emrConnection.update({
      where: { id: created.body.connection.id },
      data: {
        status: 'connected',
        accessTokenSealed: 'v1.a.b.c',
        refreshTokenSealed: 'v1.a.b.c',
        connectedAt: new Date(),
      },
    });
    const res = await admin.patch(`/api/emr-sync/connections/${created.body.connection.id}`, {
      clientId: 'new-client',
    });
    expect(res.body.connection).toMatchObject({ status: 'pending', connectedAt: null });
    expect(await app.db.emrConnection.findUniqueOrThrow({ where: { id: created.body.connection.id } })).toMatchObject({
      clientId: 'new-client',
      status: 'pending',
      accessTokenSealed: null,
      refreshTokenSealed: null,
      connectedAt: null,
    });
    // The same client id again changes nothing.
    const again = await admin.patch(`/api/emr-sync/connections/${created.body.connection.id}`, {
      clientId: 'new-client',
    });
    expect(again.body.connection.status).toBe('pending');
  });

  it("answers 404 for an unknown connection and for another clinic's, changing nothing", async () => {
    const south = await holdStepUp(app, await signIn(app, 'admin@southside.test'));
    const theirs = await south.post('/api/emr-sync/connections', { vendor: 'browser-oauth' });
    for (const id of [theirs.body.connection.id, 'emr_does_not_exist']) {
      const res = await admin.patch(`/api/emr-sync/connections/${id}`, { clientId: 'hijack' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        code: 'NOT_FOUND',
        message: 'No such EMR connection',
        correlationId: expect.any(String),
      });
    }
    expect(await app.db.emrConnection.findUniqueOrThrow({ where: { id: theirs.body.connection.id } })).toMatchObject({
      clientId: null,
      status: 'needs-registration',
    });
  });

  it('refuses a PATCH with nothing to change', async () => {
    const created = await admin.post('/api/emr-sync/connections', { vendor: 'browser-oauth' });
    const res = await admin.patch(`/api/emr-sync/connections/${created.body.connection.id}`, {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The request body is not valid',
      correlationId: expect.any(String),
      issues: [{ path: 'body.clientId', message: 'Give clientId, fhirBaseUrl or name' }],
    });
  });

  it('needs integrations:read on every connection route', async () => {
    for (const email of ['billing@northside.test', 'frontdesk@northside.test']) {
      const client = await signIn(app, email);
      for (const [method, path, json] of [
        ['GET', '/api/emr-sync/connections', undefined],
        ['POST', '/api/emr-sync/connections', { vendor: 'browser-oauth' }],
        ['PATCH', '/api/emr-sync/connections/emr_x', { clientId: 'x' }],
      ] as const) {
        const res = await client.request(method, path, json ? { json } : {});
        expect({ email, method, status: res.status, body: res.body }).toEqual({
          email,
          method,
          status: 403,
          body: {
            code: 'SCOPE_MISSING',
            message: 'This action needs the integrations:read scope',
            correlationId: expect.any(String),
          },
        });
      }
    }
  });

  it('answers 401 without a session', async () => {
    const anonymous = new HttpClient(app.url);
    for (const res of [
      await anonymous.get('/api/emr-sync/connections'),
      await anonymous.post('/api/emr-sync/connections', { vendor: 'browser-oauth' }),
      await anonymous.patch('/api/emr-sync/connections/emr_x', { clientId: 'x' }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        code: 'UNAUTHENTICATED',
        message: 'Sign in to continue',
        correlationId: expect.any(String),
      });
    }
  });
});
