// The sandbox EHR served by the app itself (sandbox only): SMART discovery and CapabilityStatement, the authorize
// page and decision, the token endpoint (authorization code + PKCE, single-use codes, refresh, client_credentials
// with a private_key_jwt checked against our own JWKS), bearer checks on every FHIR call, patient-token scoping,
// Group bulk export end to end, and 404 for all of it in production. The EHR's own protocol calls use plain fetch:
// its OAuth error bodies are RFC 6749's, not our API's error shape.
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importPKCS8, SignJWT } from 'jose';
import { clinicRecords } from '@/lib/sandbox-ehr/synthetic-records';
import { sandboxEhrVendors, sandboxGroupId } from '@/lib/sandbox-ehr/sandbox-ehr-urls';
import { freePort, startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { holdStepUp } from '../support/step-up-claim';

const CLIENT_ID = 'sandbox-ehr-demo';
const BACKEND_CLIENT_ID = 'sandbox-backend';
const KEY_ID = 'test-key-1';
const SCOPE = 'launch/patient patient/*.read offline_access';
const pem = (key: ReturnType<typeof generateKeyPairSync>['privateKey']) =>
  key.export({ type: 'pkcs8', format: 'pem' }).toString();
const ourKey = pem(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey);
const foreignKey = pem(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey);
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let app: TestApp;
let admin: HttpClient;
let base: string;
let fhir: string;
const north = clinicRecords('clinic_north');

beforeAll(async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  app = await startApp({
    port,
    env: {
      SMART_CLIENT_ID: BACKEND_CLIENT_ID,
      SMART_PRIVATE_KEY: ourKey,
      SMART_KEY_ID: KEY_ID,
      EMR_VENDORS: JSON.stringify(sandboxEhrVendors(url, ['clinic_north', 'clinic_south'])),
    },
  });
  base = `${app.url}/api/sandbox-ehr`;
  fhir = `${base}/fhir`;
  admin = await signIn(app, 'admin@northside.test');
});
afterAll(async () => {
  await app?.stop();
});

async function token(form: Record<string, string>) {
  const res = await fetch(`${base}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers };
}

function authorizeParams(verifier: string, overrides: Record<string, string> = {}) {
  return {
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: `${app.url}/api/emr-sync/callback`,
    scope: SCOPE,
    state: 'state-123',
    aud: fhir,
    code_challenge: s256(verifier),
    code_challenge_method: 'S256',
    ...overrides,
  };
}

/** The staff user approves on the sandbox EHR's page: the decision posts back and redirects with code and state. */
async function approve(client: HttpClient, verifier: string, patient = north.byType.Patient[3]!.id) {
  const res = await client.request('POST', '/api/sandbox-ehr/authorize', {
    form: { ...authorizeParams(verifier), decision: 'approve', patient },
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

async function patientTokens(patient = north.byType.Patient[3]!.id) {
  const verifier = randomBytes(32).toString('base64url');
  const back = await approve(admin, verifier, patient);
  const res = await token({
    grant_type: 'authorization_code',
    code: back.searchParams.get('code')!,
    redirect_uri: `${app.url}/api/emr-sync/callback`,
    code_verifier: verifier,
    client_id: CLIENT_ID,
  });
  expect(res.status).toBe(200);
  return res.body;
}

async function assertion(key: string, overrides: { jti?: string; aud?: string } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES384', kid: KEY_ID, typ: 'JWT' })
    .setIssuer(BACKEND_CLIENT_ID)
    .setSubject(BACKEND_CLIENT_ID)
    .setAudience(overrides.aud ?? `${base}/token`)
    .setJti(overrides.jti ?? randomBytes(8).toString('hex'))
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .sign(await importPKCS8(key, 'ES384'));
}

async function backendToken(): Promise<string> {
  const res = await token({
    grant_type: 'client_credentials',
    scope: 'system/*.read',
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    client_assertion: await assertion(ourKey),
  });
  expect(res.status).toBe(200);
  return res.body.access_token;
}

const get = async (url: string, accessToken?: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, {
    headers: {
      accept: 'application/fhir+json',
      ...headers,
      ...(accessToken && { authorization: `Bearer ${accessToken}` }),
    },
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
};

describe('discovery', () => {
  it('publishes a SMART configuration with the endpoints, PKCE S256, private_key_jwt and the capabilities', async () => {
    const res = await get(`${fhir}/.well-known/smart-configuration`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      authorization_endpoint: `${app.url}/sandbox-ehr/authorize`,
      token_endpoint: `${base}/token`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(res.body.token_endpoint_auth_methods_supported).toContain('private_key_jwt');
    expect(res.body.capabilities).toEqual(
      expect.arrayContaining([
        'launch-standalone',
        'client-public',
        'client-confidential-asymmetric',
        'context-standalone-patient',
        'permission-offline',
      ]),
    );
  });

  it('publishes a CapabilityStatement with search and read of the six types and Group $export', async () => {
    const res = await get(`${fhir}/metadata`);
    expect(res.status).toBe(200);
    expect(res.body.resourceType).toBe('CapabilityStatement');
    const resources = res.body.rest[0].resource as Array<{
      type: string;
      interaction: { code: string }[];
      operation?: { name: string }[];
    }>;
    for (const type of [
      'Patient',
      'Encounter',
      'Observation',
      'Condition',
      'MedicationRequest',
      'AllergyIntolerance',
    ]) {
      expect(resources.find((r) => r.type === type)?.interaction.map((i) => i.code)).toEqual(['read', 'search-type']);
    }
    expect(resources.find((r) => r.type === 'Group')?.operation?.map((o) => o.name)).toEqual(['export']);
  });

  it('holds deterministic synthetic data: about 300 resources per clinic, the same on every build', () => {
    const total = Object.values(north.byType).reduce((sum, list) => sum + list.length, 0);
    expect(north.byType.Patient).toHaveLength(20);
    expect(total).toBeGreaterThan(200);
    expect(total).toBeLessThan(500);
    expect(JSON.stringify(clinicRecords('clinic_north'))).toBe(JSON.stringify(north));
    expect(clinicRecords('clinic_south').byType.Patient[0]!.id).not.toBe(north.byType.Patient[0]!.id);
  });
});

describe('the authorize page', () => {
  it("shows the client, the scopes and the clinic's patients to the signed-in user", async () => {
    const verifier = randomBytes(32).toString('base64url');
    const res = await admin.get(`/sandbox-ehr/authorize?${new URLSearchParams(authorizeParams(verifier))}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(CLIENT_ID);
    expect(res.text).toContain('launch/patient');
    expect(res.text).toContain(north.byType.Patient[0]!.id);
    expect(res.text).not.toContain(clinicRecords('clinic_south').byType.Patient[0]!.id);
  });

  it('sends a signed-out browser to sign in first, and shows (never redirects) a request for an unknown client', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const anonymous = await new HttpClient(app.url).get(
      `/sandbox-ehr/authorize?${new URLSearchParams(authorizeParams(verifier))}`,
    );
    expect(anonymous.status).toBe(307);
    expect(anonymous.headers.get('location')).toContain('/login');
    const unknown = await admin.get(
      `/sandbox-ehr/authorize?${new URLSearchParams(authorizeParams(verifier, { client_id: 'someone-else' }))}`,
    );
    expect(unknown.status).toBe(200);
    expect(unknown.text).toContain('Unknown client');
  });

  it('redirects a denial back with error=access_denied and the state', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const res = await admin.request('POST', '/api/sandbox-ehr/authorize', {
      form: { ...authorizeParams(verifier), decision: 'deny' },
    });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'access_denied', state: 'state-123' });
  });

  it('refuses a patient of another clinic', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const res = await admin.request('POST', '/api/sandbox-ehr/authorize', {
      form: {
        ...authorizeParams(verifier),
        decision: 'approve',
        patient: clinicRecords('clinic_south').byType.Patient[0]!.id,
      },
    });
    expect(res.status).toBe(400);
  });
});

describe('the token endpoint', () => {
  it('exchanges a code with the right PKCE verifier for access and refresh tokens with the patient context', async () => {
    const patient = north.byType.Patient[5]!.id;
    const verifier = randomBytes(32).toString('base64url');
    const back = await approve(admin, verifier, patient);
    expect(back.searchParams.get('state')).toBe('state-123');
    expect(`${back.origin}${back.pathname}`).toBe(`${app.url}/api/emr-sync/callback`);
    const form = {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: `${app.url}/api/emr-sync/callback`,
      code_verifier: verifier,
      client_id: CLIENT_ID,
    };
    const res = await token(form);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 300, scope: SCOPE, patient });
    expect(res.body.access_token).toEqual(expect.any(String));
    expect(res.body.refresh_token).toEqual(expect.any(String));

    // A code is single use.
    const again = await token(form);
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('refuses a wrong code_verifier, and the code is spent by the attempt', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const code = (await approve(admin, verifier)).searchParams.get('code')!;
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${app.url}/api/emr-sync/callback`,
      client_id: CLIENT_ID,
    };
    expect(await token({ ...form, code_verifier: randomBytes(32).toString('base64url') })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(await token({ ...form, code_verifier: verifier })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
  });

  it('refuses a code presented with another redirect_uri or client_id', async () => {
    for (const change of [{ redirect_uri: 'http://127.0.0.1:1/elsewhere' }, { client_id: 'other-client' }]) {
      const verifier = randomBytes(32).toString('base64url');
      const code = (await approve(admin, verifier)).searchParams.get('code')!;
      const res = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: `${app.url}/api/emr-sync/callback`,
        client_id: CLIENT_ID,
        code_verifier: verifier,
        ...change,
      });
      expect(res).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    }
  });

  it('refreshes an access token with the refresh token; a forged refresh token is invalid_grant', async () => {
    const tokens = await patientTokens();
    const res = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: CLIENT_ID });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 300, patient: tokens.patient });
    expect((await get(`${fhir}/Patient/${tokens.patient}`, res.body.access_token)).status).toBe(200);
    expect(
      await token({ grant_type: 'refresh_token', refresh_token: 'v1.forged', client_id: CLIENT_ID }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
  });

  it('issues a backend token for an assertion signed with our own key, refuses a foreign key and a replayed jti', async () => {
    const form = {
      grant_type: 'client_credentials',
      scope: 'system/*.read',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    };
    const signed = await assertion(ourKey);
    const ok = await token({ ...form, client_assertion: signed });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ token_type: 'Bearer', scope: 'system/*.read' });
    expect(ok.body.refresh_token).toBeUndefined();
    expect(await token({ ...form, client_assertion: signed })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    expect(await token({ ...form, client_assertion: await assertion(foreignKey) })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    expect(
      await token({ ...form, client_assertion: await assertion(ourKey, { aud: 'https://elsewhere.example/token' }) }),
    ).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });
});

describe('FHIR access', () => {
  it('refuses a call without a token or with a forged one: 401 OperationOutcome with WWW-Authenticate', async () => {
    for (const accessToken of [undefined, 'forged-token']) {
      const res = await get(`${fhir}/Patient/${north.byType.Patient[0]!.id}`, accessToken);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(res.body.resourceType).toBe('OperationOutcome');
    }
  });

  it('confines a patient token to its patient: reads, searches and no Group', async () => {
    const tokens = await patientTokens();
    const [mine, other] = [north.byType.Patient[3]!.id, north.byType.Patient[4]!.id];
    expect((await get(`${fhir}/Patient/${mine}`, tokens.access_token)).status).toBe(200);
    expect((await get(`${fhir}/Patient/${other}`, tokens.access_token)).status).toBe(404);
    const search = await get(`${fhir}/Observation?patient=${mine}`, tokens.access_token);
    expect(search.status).toBe(200);
    const expected = north.byType.Observation.filter(
      (o) => (o.subject as { reference: string }).reference === `Patient/${mine}`,
    );
    expect(search.body.entry.map((e: { resource: { id: string } }) => e.resource.id)).toEqual(
      expected.map((o) => o.id),
    );
    expect((await get(`${fhir}/Observation?patient=${other}`, tokens.access_token)).status).toBe(403);
    expect((await get(`${fhir}/Group/${sandboxGroupId('clinic_north')}`, tokens.access_token)).status).toBe(403);
  });

  it('makes a backend token name its patients, and pages with _count and next links', async () => {
    const accessToken = await backendToken();
    expect((await get(`${fhir}/Observation`, accessToken)).status).toBe(400);
    expect((await get(`${fhir}/Practitioner?patient=x`, accessToken)).status).toBe(404);
    expect((await get(`${fhir}/Group?patient=x`, accessToken)).status).toBe(404);
    const group = await get(`${fhir}/Group/${sandboxGroupId('clinic_north')}`, accessToken);
    expect(group.status).toBe(200);
    expect(group.body.member).toHaveLength(20);
    const patient = north.byType.Patient[0]!.id;
    const first = await get(`${fhir}/Observation?patient=${patient}&_count=2`, accessToken);
    expect(first.body.entry).toHaveLength(2);
    const next = first.body.link.find((l: { relation: string }) => l.relation === 'next').url;
    const second = await get(next, accessToken);
    expect(second.status).toBe(200);
    expect(second.body.entry[0].resource.id).not.toBe(first.body.entry[0].resource.id);
    const since = await get(`${fhir}/Encounter?patient=${patient}&_lastUpdated=ge2030-01-01T00:00:00Z`, accessToken);
    expect(since.body.entry).toEqual([]);
  });
});

describe('Group bulk export', () => {
  it('kicks off (202 + Content-Location), polls (202 Retry-After), serves the manifest and NDJSON, then DELETE', async () => {
    const accessToken = await backendToken();
    const group = sandboxGroupId('clinic_north');
    const kick = await get(`${fhir}/Group/${group}/$export?_type=Patient,Condition`, accessToken, {
      prefer: 'respond-async',
    });
    expect(kick.status).toBe(202);
    const statusUrl = kick.headers.get('content-location')!;
    expect(statusUrl.startsWith(`${base}/bulk-status/`)).toBe(true);

    const early = await get(statusUrl, accessToken);
    expect(early.status).toBe(202);
    expect(early.headers.get('retry-after')).toBe('1');
    await sleep(1100);
    const done = await get(statusUrl, accessToken);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ requiresAccessToken: true, error: [] });
    expect(done.body.output.map((o: { type: string; count: number }) => [o.type, o.count])).toEqual([
      ['Patient', 20],
      ['Condition', north.byType.Condition.length],
    ]);
    const file = await fetch(done.body.output[0].url, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(file.headers.get('content-type')).toBe('application/fhir+ndjson');
    const lines = (await file.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((p) => p.id)).toEqual(north.byType.Patient.map((p) => p.id));
    expect((await fetch(done.body.output[0].url)).status).toBe(401);

    expect(
      (await fetch(statusUrl, { method: 'DELETE', headers: { authorization: `Bearer ${accessToken}` } })).status,
    ).toBe(202);
    expect((await get(statusUrl, accessToken)).status).toBe(404);
  });

  it('refuses an unsupported parameter unless Prefer: handling=lenient, which reports it in error[]', async () => {
    const accessToken = await backendToken();
    const url = `${fhir}/Group/${sandboxGroupId('clinic_north')}/$export?_typeFilter=Patient%3Factive%3Dtrue`;
    expect((await get(url, accessToken, { prefer: 'respond-async' })).status).toBe(400);
    const kick = await get(url, accessToken, { prefer: 'respond-async, handling=lenient' });
    expect(kick.status).toBe(202);
    await sleep(1100);
    const done = await get(kick.headers.get('content-location')!, accessToken);
    expect(done.body.error).toHaveLength(1);
  });

  it('needs a backend token and a known Group', async () => {
    const patient = await patientTokens();
    const url = (g: string) => `${fhir}/Group/${g}/$export`;
    expect(
      (await get(url(sandboxGroupId('clinic_north')), patient.access_token, { prefer: 'respond-async' })).status,
    ).toBe(403);
    expect((await get(url('grp-nobody'), await backendToken(), { prefer: 'respond-async' })).status).toBe(404);
  });

  it("is what the smart-backend connection pulls: Pull now imports the clinic's Group", async () => {
    const created = await (await holdStepUp(app, admin)).post('/api/emr-sync/connections', { vendor: 'smart-backend' });
    expect(created.status).toBe(201);
    const res = await admin.post(`/api/emr-sync/connections/${created.body.connection.id}/pull`, {});
    // Queued as a job (an export may take hours): the run is followed until it ends.
    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toBe(`/api/emr-sync/runs/${res.body.syncRunId}`);
    let run = (await admin.get(`/api/emr-sync/runs/${res.body.syncRunId}`)).body;
    for (let i = 0; i < 120 && ['queued', 'running'].includes(run.status); i++) {
      await sleep(500);
      run = (await admin.get(`/api/emr-sync/runs/${res.body.syncRunId}`)).body;
    }
    expect(run.status).toBe('succeeded');
    expect(
      Object.fromEntries(
        Object.entries(run.counts as Record<string, { created: number }>).map(([t, c]) => [t, c.created]),
      ),
    ).toEqual(
      Object.fromEntries(
        Object.entries(north.byType)
          .filter(([, list]) => list.length > 0)
          .map(([type, list]) => [type, list.length]),
      ),
    );
  });
});

describe('production', () => {
  let production: TestApp;
  beforeAll(async () => {
    production = await startApp({
      env: {
        SVC_ENV: 'production',
        SMART_CLIENT_ID: BACKEND_CLIENT_ID,
        SMART_PRIVATE_KEY: ourKey,
        SMART_KEY_ID: KEY_ID,
      },
    });
  });
  afterAll(async () => {
    await production?.stop();
  });

  it('never serves the sandbox EHR: every route is 404', async () => {
    const at = `${production.url}/api/sandbox-ehr`;
    const group = sandboxGroupId('clinic_north');
    for (const [method, url] of [
      ['GET', `${at}/fhir/.well-known/smart-configuration`],
      ['GET', `${at}/fhir/metadata`],
      ['POST', `${at}/token`],
      ['GET', `${at}/fhir/Patient?patient=x`],
      ['GET', `${at}/fhir/Patient/x`],
      ['GET', `${at}/fhir/NotAType`],
      ['GET', `${at}/fhir/NotAType/not_an_id`],
      ['GET', `${at}/fhir/Group/${group}/$export`],
      ['GET', `${at}/bulk-status/x`],
      ['GET', `${at}/bulk-files/x/Patient`],
    ] as const) {
      const res = await fetch(url, { method, ...(method === 'POST' && { body: 'grant_type=client_credentials' }) });
      expect({ url, status: res.status }).toEqual({ url, status: 404 });
    }
  });
});
