// The browser OAuth round trip (SMART App Launch v2) against the fake EMR: what authorize sends and stores, the
// single-use state under concurrency, expiry and reuse, PKCE verified end to end, sealed tokens, 403/404/503
// paths with zero calls to the EMR, and the browser redirects back to the integrations screen.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unseal } from '@/lib/crypto/seal';
import { startFakeEmr, type FakeEmr } from '../fakes/fake-emr';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { holdStepUp } from '../support/step-up-claim';
import { createUser, TEST_PASSWORD } from '../support/factories';

const CLIENT_ID = 'northside-app';
const SCOPE = 'launch/patient patient/*.read offline_access';
const HTML = { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' };
const sealKey = Buffer.from(TEST_SECRETS.SEAL_KEY, 'base64');
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

let emr: FakeEmr;
let app: TestApp;
let admin: HttpClient;

beforeAll(async () => {
  emr = await startFakeEmr({ clientId: CLIENT_ID });
  app = await startApp({
    env: {
      EMR_VENDORS: JSON.stringify({
        'browser-oauth': { authorizeUrl: emr.authorizeUrl, tokenUrl: emr.tokenUrl, fhirBaseUrl: emr.fhirBaseUrl },
        // An entry without tokenUrl: authorize works, the callback answers 503.
        'partner-api': { authorizeUrl: emr.authorizeUrl, fhirBaseUrl: emr.fhirBaseUrl },
      }),
    },
  });
  admin = await signIn(app, 'admin@northside.test');
});
afterAll(async () => {
  await app?.stop();
  await emr?.close();
});

async function createConnection(
  client: HttpClient,
  body: Record<string, unknown> = { vendor: 'browser-oauth', clientId: CLIENT_ID },
): Promise<string> {
  const res = await (await holdStepUp(app, client)).post('/api/emr-sync/connections', body);
  expect(res.status).toBe(201);
  return res.body.connection.id;
}

async function authorize(client: HttpClient, connectionId: string): Promise<URL> {
  const res = await client.get(`/api/emr-sync/authorize?connectionId=${connectionId}`);
  expect(res.status).toBe(302);
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  return new URL(res.headers.get('location')!);
}

/** The user's browser at the EMR: consent is granted and the EMR redirects back to our callback. */
async function consent(authorizeUrl: URL): Promise<string> {
  const res = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get('location')!);
  expect(back.searchParams.get('error')).toBeNull();
  return `${back.pathname}${back.search}`;
}

const invalidState = {
  code: 'VALIDATION_FAILED',
  message: 'The authorization state is invalid, expired or already used; start the connection again',
  correlationId: expect.any(String),
  issues: [{ path: 'query.state', message: 'Unknown, expired or already used' }],
};

describe('GET /api/emr-sync/authorize', () => {
  it('redirects to the EMR with code flow, client id, redirect URI, scope, state, PKCE S256 and aud, storing only the state hash', async () => {
    const connectionId = await createConnection(admin);
    const before = emr.requests.total;
    const started = Date.now();
    const location = await authorize(admin, connectionId);
    expect(emr.requests.total).toBe(before); // the configured vendor needs no discovery
    expect(`${location.origin}${location.pathname}`).toBe(emr.authorizeUrl);
    const q = Object.fromEntries(location.searchParams);
    expect(q).toEqual({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: `${app.url}/api/emr-sync/callback`,
      scope: SCOPE,
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), // 256 random bits
      aud: emr.fhirBaseUrl,
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    const rows = await app.db.oAuthState.findMany({ where: { connectionId } });
    expect(rows).toEqual([
      {
        stateHash: sha256(q.state!),
        clinicId: 'clinic_north',
        userId: expect.any(String),
        connectionId,
        codeVerifierSealed: expect.stringMatching(/^v1\./),
        expiresAt: expect.any(Date),
        consumedAt: null,
        createdAt: expect.any(Date),
      },
    ]);
    const admin_ = await app.db.user.findUniqueOrThrow({ where: { email: 'admin@northside.test' } });
    expect(rows[0]!.userId).toBe(admin_.id);
    const ttl = rows[0]!.expiresAt.getTime() - started;
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    expect(JSON.stringify(rows)).not.toContain(q.state);
    // The sealed verifier is the one whose S256 is the challenge sent.
    const verifier = unseal(rows[0]!.codeVerifierSealed, sealKey, `oauth-verifier:${rows[0]!.stateHash}`);
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(q.code_challenge);
  });

  it('mints a fresh state and verifier on every authorization', async () => {
    const connectionId = await createConnection(admin);
    const first = await authorize(admin, connectionId);
    const second = await authorize(admin, connectionId);
    expect(first.searchParams.get('state')).not.toBe(second.searchParams.get('state'));
    expect(first.searchParams.get('code_challenge')).not.toBe(second.searchParams.get('code_challenge'));
  });

  it('discovers the endpoints of a connection that names its own FHIR server, with aud = that server', async () => {
    const connectionId = await createConnection(admin, {
      vendor: 'generic-fhir',
      clientId: CLIENT_ID,
      fhirBaseUrl: emr.fhirBaseUrl,
    });
    const discoveries = emr.requests.byPath['/fhir/.well-known/smart-configuration'] ?? 0;
    const location = await authorize(admin, connectionId);
    expect(emr.requests.byPath['/fhir/.well-known/smart-configuration']).toBe(discoveries + 1);
    expect(location.searchParams.get('aud')).toBe(emr.fhirBaseUrl);
    const res = await admin.get(await consent(location));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ connectionId, vendor: 'generic-fhir', status: 'connected' });
  });

  it.each([
    ['an unknown connection', async () => 'emr_unknown', 404, { code: 'NOT_FOUND', message: 'No such EMR connection' }],
    [
      "another clinic's connection",
      async () => createConnection(await signIn(app, 'admin@southside.test')),
      403,
      { code: 'FORBIDDEN', message: 'This connection belongs to another clinic' },
    ],
    [
      'a connection without a client id',
      async () => createConnection(admin, { vendor: 'browser-oauth' }),
      403,
      { code: 'FORBIDDEN', message: 'Add the client id the EMR issued for this clinic before connecting' },
    ],
    [
      'a vendor with no registry entry',
      async () => createConnection(admin, { vendor: 'smart-backend', clientId: CLIENT_ID }),
      503,
      { code: 'DEPENDENCY_UNAVAILABLE', message: "The EMR's authorization endpoint is not configured" },
    ],
  ])('refuses %s, storing no state and calling no EMR', async (_name, makeConnection, status, error) => {
    const connectionId = await makeConnection();
    const [states, calls] = [await app.db.oAuthState.count(), emr.requests.total];
    const res = await admin.get(`/api/emr-sync/authorize?connectionId=${connectionId}`);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ ...error, correlationId: expect.any(String) });
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect([await app.db.oAuthState.count(), emr.requests.total]).toEqual([states, calls]);
  });

  it('sends a browser back to the integrations screen with the refusal', async () => {
    const res = await admin.get('/api/emr-sync/authorize?connectionId=emr_unknown', { headers: HTML });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(
      `${app.url}/settings/integrations?oauth=failed&code=NOT_FOUND&correlationId=${res.headers.get('x-correlation-id')}`,
    );
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('needs only a staff session (no integrations:read), and refuses a missing connectionId', async () => {
    const connectionId = await createConnection(admin);
    const frontdesk = await signIn(app, 'frontdesk@northside.test');
    expect((await frontdesk.get(`/api/emr-sync/authorize?connectionId=${connectionId}`)).status).toBe(302);
    const res = await admin.get('/api/emr-sync/authorize');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The request query is not valid',
      correlationId: expect.any(String),
      issues: [{ path: 'query.connectionId', message: 'Invalid input: expected string, received undefined' }],
    });
  });
});

describe('GET /api/emr-sync/callback', () => {
  it('exchanges the code with the PKCE verifier, connects the connection and seals the tokens', async () => {
    const connectionId = await createConnection(admin);
    const location = await authorize(admin, connectionId);
    const callback = await consent(location);
    const tokenCalls = emr.requests.token;
    const res = await admin.get(callback);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ connectionId, vendor: 'browser-oauth', status: 'connected' });
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(emr.requests.token).toBe(tokenCalls + 1);

    const sent = emr.receivedTokenRequests.at(-1)!;
    expect(sent).toEqual({
      grant_type: 'authorization_code',
      code: new URL(callback, app.url).searchParams.get('code'),
      redirect_uri: `${app.url}/api/emr-sync/callback`,
      code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      client_id: CLIENT_ID,
    });
    expect(createHash('sha256').update(sent.code_verifier!).digest('base64url')).toBe(
      location.searchParams.get('code_challenge'),
    );

    const row = await app.db.emrConnection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(row).toMatchObject({
      status: 'connected',
      grantedScope: SCOPE,
      connectedAt: expect.any(Date),
      tokenExpiresAt: expect.any(Date),
    });
    const accessToken = unseal(row.accessTokenSealed!, sealKey, `emr-access-token:${connectionId}`);
    const refreshToken = unseal(row.refreshTokenSealed!, sealKey, `emr-refresh-token:${connectionId}`);
    // The raw row holds neither token in any readable form...
    const raw = JSON.stringify(
      await app.db.$queryRawUnsafe(`SELECT * FROM "EmrConnection" WHERE id = $1`, connectionId),
    );
    for (const token of [accessToken, refreshToken]) expect(raw).not.toContain(token);
    // ...and what it seals is the real access token: the EMR accepts it.
    const fhir = await fetch(`${emr.fhirBaseUrl}/Patient`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(fhir.status).toBe(200);
    // Neither the list nor the callback ever shows them.
    const list = await admin.get('/api/emr-sync/connections');
    for (const token of [accessToken, refreshToken]) expect(list.text + res.text).not.toContain(token);
    expect(
      await app.db.oAuthState.findUniqueOrThrow({ where: { stateHash: sha256(location.searchParams.get('state')!) } }),
    ).toMatchObject({ consumedAt: expect.any(Date) });
  });

  it('lets exactly one of 20 concurrent callbacks with one state reach the token endpoint', async () => {
    const connectionId = await createConnection(admin);
    const callback = await consent(await authorize(admin, connectionId));
    const tokenCalls = emr.requests.token;
    const results = await Promise.all(Array.from({ length: 20 }, () => admin.get(callback)));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(400)]);
    for (const res of results.filter((r) => r.status === 400)) expect(res.body).toEqual(invalidState);
    expect(emr.requests.token).toBe(tokenCalls + 1);
    expect((await app.db.emrConnection.findUniqueOrThrow({ where: { id: connectionId } })).status).toBe('connected');
  });

  it('refuses a reused state with 400 and no second token request', async () => {
    const callback = await consent(await authorize(admin, await createConnection(admin)));
    expect((await admin.get(callback)).status).toBe(200);
    const tokenCalls = emr.requests.token;
    const res = await admin.get(callback);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidState);
    expect(emr.requests.token).toBe(tokenCalls);
  });

  it('refuses an expired state with 400, no token request and the connection untouched', async () => {
    const connectionId = await createConnection(admin);
    const location = await authorize(admin, connectionId);
    const callback = await consent(location);
    await app.db.oAuthState.update({
      where: { stateHash: sha256(location.searchParams.get('state')!) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const tokenCalls = emr.requests.token;
    const res = await admin.get(callback);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidState);
    expect(emr.requests.token).toBe(tokenCalls);
    expect(await app.db.emrConnection.findUniqueOrThrow({ where: { id: connectionId } })).toMatchObject({
      status: 'pending',
      accessTokenSealed: null,
    });
  });

  it('refuses an unknown state with 400 and no token request', async () => {
    const tokenCalls = emr.requests.token;
    const res = await admin.get('/api/emr-sync/callback?code=anything&state=never-minted-state-value');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidState);
    expect(emr.requests.token).toBe(tokenCalls);
  });

  it("answers 403 to another clinic's or another user's state and leaves it usable by its owner", async () => {
    const connectionId = await createConnection(admin);
    const location = await authorize(admin, connectionId);
    const callback = await consent(location);
    const colleague = await createUser(app.db, {
      orgId: 'org_demo',
      clinicId: 'clinic_north',
      clinicName: 'Northside Clinic',
    });
    const cases = [
      [await signIn(app, 'admin@southside.test'), 'This authorization was started in another clinic'],
      [await signIn(app, colleague.email, TEST_PASSWORD), 'This authorization was started by another user'],
    ] as const;
    const tokenCalls = emr.requests.token;
    for (const [client, message] of cases) {
      const res = await client.get(callback);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 'FORBIDDEN', message, correlationId: expect.any(String) });
    }
    expect(emr.requests.token).toBe(tokenCalls);
    expect((await admin.get(callback)).status).toBe(200);
  });

  it('answers 503 before touching the state or the network when the vendor has no token endpoint', async () => {
    const connectionId = await createConnection(admin, { vendor: 'partner-api', clientId: CLIENT_ID });
    const location = await authorize(admin, connectionId);
    const callback = await consent(location);
    const calls = emr.requests.total;
    const res = await admin.get(callback);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      code: 'DEPENDENCY_UNAVAILABLE',
      message: "The EMR's token endpoint is not configured",
      correlationId: expect.any(String),
    });
    expect(emr.requests.total).toBe(calls);
    expect(
      await app.db.oAuthState.findUniqueOrThrow({ where: { stateHash: sha256(location.searchParams.get('state')!) } }),
    ).toMatchObject({ consumedAt: null });
    expect((await app.db.emrConnection.findUniqueOrThrow({ where: { id: connectionId } })).status).toBe('pending');
  });

  it('spends the state when the EMR refuses consent, and asks for no token', async () => {
    const location = await authorize(admin, await createConnection(admin));
    const state = location.searchParams.get('state')!;
    const tokenCalls = emr.requests.token;
    const res = await admin.get(`/api/emr-sync/callback?state=${state}&error=access_denied`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The EMR did not authorize the connection (access_denied)',
      correlationId: expect.any(String),
      issues: [{ path: 'query.code', message: 'Required' }],
    });
    expect(emr.requests.token).toBe(tokenCalls);
    expect((await admin.get(`/api/emr-sync/callback?state=${state}&code=late`)).body).toEqual(invalidState);
  });

  it('answers 422 when the EMR refuses the code, leaving the connection pending', async () => {
    const connectionId = await createConnection(admin);
    const location = await authorize(admin, connectionId);
    const res = await admin.get(`/api/emr-sync/callback?state=${location.searchParams.get('state')}&code=forged-code`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      code: 'UNPROCESSABLE',
      message: 'The EMR refused the authorization; the connection needs authorizing again',
      correlationId: expect.any(String),
    });
    expect(await app.db.emrConnection.findUniqueOrThrow({ where: { id: connectionId } })).toMatchObject({
      status: 'pending',
      accessTokenSealed: null,
    });
  });

  it('sends a browser back to the integrations screen with the outcome', async () => {
    const connectionId = await createConnection(admin);
    const callback = await consent(await authorize(admin, connectionId));
    const ok = await admin.get(callback, { headers: HTML });
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe(
      `${app.url}/settings/integrations?oauth=connected&connectionId=${connectionId}`,
    );
    expect(ok.headers.get('referrer-policy')).toBe('no-referrer');
    const again = await admin.get(callback, { headers: HTML });
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe(
      `${app.url}/settings/integrations?oauth=failed&code=VALIDATION_FAILED&correlationId=${again.headers.get('x-correlation-id')}`,
    );
  });

  it('needs integrations:read and a session, before any state is looked at', async () => {
    const callback = await consent(await authorize(admin, await createConnection(admin)));
    const frontdesk = await signIn(app, 'frontdesk@northside.test');
    const denied = await frontdesk.get(callback);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
      code: 'SCOPE_MISSING',
      message: 'This action needs the integrations:read scope',
      correlationId: expect.any(String),
    });
    const anonymous = await new HttpClient(app.url).get(callback);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({
      code: 'UNAUTHENTICATED',
      message: 'Sign in to continue',
      correlationId: expect.any(String),
    });
    expect((await new HttpClient(app.url).get('/api/emr-sync/authorize?connectionId=x')).status).toBe(401);
    expect((await admin.get(callback)).status).toBe(200);
  });
});

describe('without SEAL_KEY', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await startApp({
      env: {
        SEAL_KEY: undefined,
        EMR_VENDORS: JSON.stringify({
          'browser-oauth': { authorizeUrl: emr.authorizeUrl, tokenUrl: emr.tokenUrl, fhirBaseUrl: emr.fhirBaseUrl },
        }),
      },
    });
  });
  afterAll(async () => {
    await bare?.stop();
  });

  it('refuses to start an authorization with 503: no state stored, no EMR called', async () => {
    const client = await signIn(bare, 'admin@northside.test');
    const connectionId = await createConnection(client);
    const calls = emr.requests.total;
    const res = await client.get(`/api/emr-sync/authorize?connectionId=${connectionId}`);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      code: 'DEPENDENCY_UNAVAILABLE',
      message: 'Secure storage is not available',
      correlationId: expect.any(String),
    });
    expect(await bare.db.oAuthState.count()).toBe(0);
    expect(emr.requests.total).toBe(calls);
  });
});
