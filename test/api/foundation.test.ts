// The foundation's promises, over real HTTP: the auth gate covers every route, errors have one shape,
// correlation ids behave, and the route registry matches the files on disk.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@/lib/api/registry';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { holdStepUp } from '../support/step-up-claim';
import { createTenant, createUser } from '../support/factories';
import { concretePath, routeFiles } from '../support/routes';

// Catch-alls are not operations: next-auth's own endpoints, and the typed 404 for unknown /api paths.
const CATCH_ALLS = ['/api/auth/{...nextauth}', '/api/{...path}'];

describe('route registry', () => {
  const files = routeFiles().filter((r) => !CATCH_ALLS.includes(r.path));

  it('declares every method of every app route file, and nothing more', () => {
    const onDisk = files.flatMap((r) => r.methods.map((m) => `${m} ${r.path}`)).sort();
    const declared = ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort();
    expect(onDisk.length).toBeGreaterThan(0);
    expect(declared).toEqual(onDisk);
  });

  it('has one endpoint per method and path', () => {
    const keys = ENDPOINTS.map((e) => `${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('the auth gate and error shape', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('answers 401 UNAUTHENTICATED with the full error body for every non-public route without a session', async () => {
    const anonymous = new HttpClient(app.url);
    const gated = ENDPOINTS.filter((e) => e.auth === 'session');
    expect(gated.length).toBeGreaterThan(0);
    for (const e of gated) {
      const res = await anonymous.request(e.method, concretePath(e.path), e.body ? { json: {} } : {});
      expect({ route: `${e.method} ${e.path}`, status: res.status, body: res.body }).toEqual({
        route: `${e.method} ${e.path}`,
        status: 401,
        body: { code: 'UNAUTHENTICATED', message: 'Sign in to continue', correlationId: expect.any(String) },
      });
      expect(res.headers.get('x-correlation-id')).toBe(res.body.correlationId);
    }
  });

  it('rejects a forged or garbage session cookie and bearer token like no session', async () => {
    const forged = new HttpClient(app.url);
    forged.cookies.set('next-auth.session-token', 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..garbage.garbage.garbage');
    expect((await forged.get('/api/appointments?date=2026-01-01')).status).toBe(401);
    const bearer = await new HttpClient(app.url).get('/api/appointments?date=2026-01-01', {
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(bearer.status).toBe(401);
  });

  it('keeps a well-formed incoming correlation id and replaces a malformed one', async () => {
    const client = new HttpClient(app.url);
    const kept = await client.get('/api/appointments?date=2026-01-01', {
      headers: { 'x-correlation-id': 'partner-trace-0001' },
    });
    expect(kept.headers.get('x-correlation-id')).toBe('partner-trace-0001');
    expect(kept.body.correlationId).toBe('partner-trace-0001');
    const replaced = await client.get('/api/health', { headers: { 'x-correlation-id': 'bad id <script>' } });
    expect(replaced.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
    const minted = await client.get('/api/health');
    expect(minted.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an unknown /api path with a typed 404, not an HTML page', async () => {
    const client = await signIn(app, 'frontdesk@northside.test');
    for (const path of ['/api/nope', '/api/settlement/instructions/../sign', '/api/a/b/c']) {
      const res = await client.post(path, {});
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        code: 'NOT_FOUND',
        message: 'There is no such API route',
        correlationId: expect.any(String),
      });
    }
  });

  it('refuses a body over 1 MiB with VALIDATION_FAILED, declared or streamed without a length', async () => {
    const client = await holdStepUp(app, await signIn(app, 'admin@northside.test'));
    const big = JSON.stringify({ patientId: 'x'.repeat(1024 * 1024) });
    const declared = await client.request('POST', '/api/emr-sync/connections', {
      body: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(declared.status).toBe(400);
    expect(declared.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The request body is too large',
      correlationId: expect.any(String),
      issues: [{ path: 'body', message: 'At most 1048576 bytes' }],
    });
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const chunked = await client.request('POST', '/api/emr-sync/connections', {
      body: stream,
      headers: { 'content-type': 'application/json' },
    });
    expect(chunked.status).toBe(400);
    expect(chunked.body.code).toBe('VALIDATION_FAILED');
  });

  it('refuses text holding a NUL character with the field path (PostgreSQL text cannot store it)', async () => {
    const client = await holdStepUp(app, await signIn(app, 'admin@northside.test'));
    const res = await client.post('/api/emr-sync/connections', { vendor: 'generic-fhir', clientId: 'abc\u0000def' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The request body is not valid',
      correlationId: expect.any(String),
      issues: [{ path: 'body.clientId', message: 'Text may not contain NUL characters' }],
    });
    const query = await client.get('/api/appointments?date=2026-01-01%00');
    expect(query.status).toBe(400);
    expect(query.body.issues).toEqual([{ path: 'query.date', message: 'Text may not contain NUL characters' }]);
  });

  it('serves health publicly with the mode and database state', async () => {
    const res = await new HttpClient(app.url).get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', mode: 'sandbox', database: 'ok' });
  });

  it('redirects a signed-out page view to /login, keeping where the user was going', async () => {
    const res = await new HttpClient(app.url).get('/eligibility/roster');
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe('/login?callbackUrl=%2Feligibility%2Froster');
  });

  it('accepts the session token as a bearer token for server callers', async () => {
    const browser = await signIn(app, 'frontdesk@northside.test');
    const server = new HttpClient(app.url);
    const res = await server.get('/api/appointments?date=2026-01-01', {
      headers: { authorization: `Bearer ${browser.sessionToken}` },
    });
    expect(res.status).toBe(200);
  });

  it('ends every session of a user when sessionVersion changes (lockout, password or MFA change)', async () => {
    const tenant = await createTenant(app.db);
    const user = await createUser(app.db, tenant);
    const client = await signIn(app, user.email, user.password);
    expect((await client.get('/api/appointments?date=2026-01-01')).status).toBe(200);
    await app.db.user.update({ where: { id: user.id }, data: { sessionVersion: { increment: 1 } } });
    const res = await client.get('/api/appointments?date=2026-01-01');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      code: 'UNAUTHENTICATED',
      message: 'Your session has ended; sign in again',
      correlationId: expect.any(String),
    });
  });

  it('drops a scope removed from the user since sign-in at once', async () => {
    const tenant = await createTenant(app.db);
    const user = await createUser(app.db, tenant, { scopes: ['appointments:read'] });
    const client = await signIn(app, user.email, user.password);
    await app.db.user.update({ where: { id: user.id }, data: { scopes: [] } });
    const res = await client.get('/api/appointments?date=2026-01-01');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('SCOPE_MISSING');
  });

  it('refuses a cookie-authenticated write from a foreign Origin or Referer with 403 FORBIDDEN', async () => {
    const writes = ENDPOINTS.filter((e) => e.auth === 'session' && e.method !== 'GET');
    const client = await signIn(app, 'admin@northside.test');
    for (const e of writes) {
      for (const header of [{ origin: 'https://evil.example' }, { referer: 'https://evil.example/page' }] as Record<
        string,
        string
      >[]) {
        const res = await client.request(e.method, concretePath(e.path), { json: {}, headers: header });
        // FHIR endpoints (POST $export) say the same in an OperationOutcome.
        const refusal = res.body.resourceType
          ? { code: res.body.issue[0].details.coding[0].code, message: res.body.issue[0].details.text }
          : { code: res.body.code, message: res.body.message };
        expect({ route: `${e.method} ${e.path}`, status: res.status, refusal }).toEqual({
          route: `${e.method} ${e.path}`,
          status: 403,
          refusal: { code: 'FORBIDDEN', message: 'Cross-origin requests are not allowed' },
        });
        expect(e.errorFormat === 'operation-outcome' || typeof res.body.correlationId === 'string').toBe(true);
      }
    }
  });

  it('asks for a step-up on every gated route when the session carries none', async () => {
    const gated = ENDPOINTS.filter((e) => e.stepUp);
    const client = await signIn(app, 'admin@northside.test');
    for (const e of gated) {
      const res = await client.request(e.method, concretePath(e.path), e.body ? { json: {} } : {});
      expect({ route: `${e.method} ${e.path}`, status: res.status, code: res.body.code }).toEqual({
        route: `${e.method} ${e.path}`,
        status: 401,
        code: 'STEP_UP_REQUIRED',
      });
      expect(res.headers.get('www-authenticate')).toContain('error="insufficient_user_authentication"');
    }
  });

  it('documents every registered endpoint in the OpenAPI document', async () => {
    const res = await new HttpClient(app.url).get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    for (const e of ENDPOINTS)
      expect(res.body.paths[e.path]?.[e.method.toLowerCase()], `${e.method} ${e.path}`).toBeDefined();
  });
});

describe('halted money routes', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ env: { SVC_HALT: '1' } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('refuses every money route with 503 while SVC_HALT=1', async () => {
    const client = await signIn(app, 'admin@northside.test');
    for (const e of ENDPOINTS.filter((x) => x.money && x.auth === 'session')) {
      const res = await client.request(e.method, concretePath(e.path), e.body ? { json: {} } : {});
      expect({ route: `${e.method} ${e.path}`, status: res.status, body: res.body }).toEqual({
        route: `${e.method} ${e.path}`,
        status: 503,
        body: {
          code: 'DEPENDENCY_UNAVAILABLE',
          message: 'Money movement is halted',
          correlationId: expect.any(String),
        },
      });
    }
  });
});
