// Browser connections get their use (issue #12 item 5), against the app's own sandbox EHR, its token endpoint
// behind a counting loopback proxy: the full SMART round trip keeps the patient context and the token expiry;
// "Pull now" reads the patient compartment with the stored token (no token call while it is fresh), refreshes it
// first when it expires within a minute, and a refused refresh sends the connection back to needs-reauthorization
// with the reason in words and its tokens cleared. Clinic scoping and the missing-patient 422 too.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seal, unseal } from '@/lib/crypto/seal';
import { sealValue } from '@/lib/sandbox-ehr/sandbox-tokens';
import { clinicRecords, patientIdOf } from '@/lib/sandbox-ehr/synthetic-records';
import { SYNC_RESOURCE_TYPES } from '@/lib/fhir/types';
import { freePort, startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { holdStepUp } from '../support/step-up-claim';

const CLIENT_ID = 'sandbox-ehr-demo';
const SCOPE = 'launch/patient patient/*.read offline_access';
const sealKey = Buffer.from(TEST_SECRETS.SEAL_KEY, 'base64');
const north = clinicRecords('clinic_north');
const PATIENT = north.byType.Patient[2]!.id;

let app: TestApp;
let admin: HttpClient;
let proxy: http.Server;
const tokenCalls: string[] = [];
/** When set, the next token request is answered here with this status and `invalid_grant` (real EHRs vary it). */
let refuseNextToken: number | null = null;
/** When set, the proxy's answers carry this `Date` (an EHR whose clock differs from ours). */
let ehrDate: string | null = null;
let proxied = '';

/** Forwards to the app and counts token endpoint calls (the sandbox EHR lives inside the app). */
async function startProxy(target: string): Promise<string> {
  proxy = http.createServer((req, res) => {
    if (req.url?.startsWith('/api/sandbox-ehr/token')) {
      tokenCalls.push(req.url);
      if (refuseNextToken !== null) {
        const status = refuseNextToken;
        refuseNextToken = null;
        res.writeHead(status, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ error: 'invalid_grant', error_description: 'refresh token revoked' }));
      }
    }
    const upstream = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, { ...answer.headers, ...(ehrDate && { date: ehrDate }) });
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  proxied = await startProxy(url);
  app = await startApp({
    port,
    env: {
      EMR_VENDORS: JSON.stringify({
        'browser-oauth': {
          authorizeUrl: `${url}/sandbox-ehr/authorize`,
          tokenUrl: `${proxied}/api/sandbox-ehr/token`,
          fhirBaseUrl: `${url}/api/sandbox-ehr/fhir`,
        },
      }),
    },
  });
  admin = await signIn(app, 'admin@northside.test');
});
afterAll(async () => {
  await app?.stop();
  await new Promise((resolve) => proxy?.close(resolve));
});

async function createConnection(client = admin): Promise<string> {
  const res = await (
    await holdStepUp(app, client)
  ).post('/api/emr-sync/connections', { vendor: 'browser-oauth', clientId: CLIENT_ID });
  expect(res.status).toBe(201);
  return res.body.connection.id;
}

/** A connected row as the callback leaves it, with sandbox EHR tokens minted directly (same SEAL_KEY). */
async function connect(
  connectionId: string,
  options: { expiresInMs: number; refreshToken?: string; patient?: string | null },
): Promise<void> {
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const patient = options.patient === undefined ? PATIENT : options.patient;
  const grant = { clientId: CLIENT_ID, scope: SCOPE, clinicId: 'clinic_north', patient: patient ?? PATIENT };
  const config = { sealKey };
  const access = sealValue(config, { t: 'access', ...grant, exp });
  const refresh = options.refreshToken ?? sealValue(config, { t: 'refresh', ...grant, exp: exp + 86_400 });
  await app.db.emrConnection.update({
    where: { id: connectionId },
    data: {
      status: 'connected',
      accessTokenSealed: seal(access, sealKey, `emr-access-token:${connectionId}`),
      refreshTokenSealed: seal(refresh, sealKey, `emr-refresh-token:${connectionId}`),
      tokenExpiresAt: new Date(Date.now() + options.expiresInMs),
      grantedScope: SCOPE,
      launchPatientId: patient,
      connectedAt: new Date(),
    },
  });
}

const compartmentCounts = (patient: string) =>
  Object.fromEntries(
    SYNC_RESOURCE_TYPES.map((type) => [type, north.byType[type].filter((r) => patientIdOf(r) === patient).length]),
  );

describe('the browser authorization keeps what the pull needs', () => {
  it('connects through the sandbox EHR page and stores the launch patient and the token expiry', async () => {
    const connectionId = await createConnection();
    const started = await admin.get(`/api/emr-sync/authorize?connectionId=${connectionId}`);
    expect(started.status).toBe(302);
    const authorizeUrl = new URL(started.headers.get('location')!);
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(`${app.url}/sandbox-ehr/authorize`);
    const approved = await admin.request('POST', '/api/sandbox-ehr/authorize', {
      form: { ...Object.fromEntries(authorizeUrl.searchParams), decision: 'approve', patient: PATIENT },
    });
    expect(approved.status).toBe(302);
    const callback = new URL(approved.headers.get('location')!);
    const before = tokenCalls.length;
    const res = await admin.get(`${callback.pathname}${callback.search}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ connectionId, vendor: 'browser-oauth', status: 'connected' });
    expect(tokenCalls.length).toBe(before + 1);
    const row = await app.db.emrConnection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(row.launchPatientId).toBe(PATIENT);
    expect(row.tokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 240_000);
    expect(row.tokenExpiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 300_000);
    expect(row.refreshTokenSealed).not.toBeNull();

    const pulled = await admin.post(`/api/emr-sync/connections/${connectionId}/pull`, {});
    expect(pulled.status).toBe(200);
    expect(pulled.body.upserted).toEqual(compartmentCounts(PATIENT));
  });
});

describe('POST /api/emr-sync/connections/{id}/pull (browser connection)', () => {
  it('reads the patient compartment with a fresh token and makes no token call', async () => {
    const connectionId = await createConnection();
    await connect(connectionId, { expiresInMs: 10 * 60_000 });
    const before = tokenCalls.length;
    const res = await admin.post(`/api/emr-sync/connections/${connectionId}/pull`, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, upserted: compartmentCounts(PATIENT), syncRunId: expect.any(String) });
    expect(tokenCalls.length).toBe(before);
    const run = await app.db.syncRun.findUniqueOrThrow({ where: { id: res.body.syncRunId } });
    expect(run).toMatchObject({ clinicId: 'clinic_north', connectionId, kind: 'browser-oauth', status: 'succeeded' });

    // The pulled resources are in the clinic's FHIR store.
    const search = await admin.get(`/api/fhir/Condition?_count=100`);
    expect(search.status).toBe(200);
    expect(search.body.entry.length).toBeGreaterThanOrEqual(1);
  });

  it('refreshes a token that expires within a minute, once, before reading, and stores the new one', async () => {
    const connectionId = await createConnection();
    await connect(connectionId, { expiresInMs: 30_000 });
    const old = await app.db.emrConnection.findUniqueOrThrow({ where: { id: connectionId } });
    const before = tokenCalls.length;
    const res = await admin.post(`/api/emr-sync/connections/${connectionId}/pull`, {});
    expect(res.status).toBe(200);
    expect(tokenCalls.length).toBe(before + 1);
    const row = await app.db.emrConnection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(row.status).toBe('connected');
    expect(row.lastError).toBeNull();
    expect(row.tokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 240_000);
    const access = (sealed: string) => unseal(sealed, sealKey, `emr-access-token:${connectionId}`);
    expect(access(row.accessTokenSealed!)).not.toBe(access(old.accessTokenSealed!));

    // The next pull is incremental: only what changed since this one (the synthetic data is older).
    const again = await admin.post(`/api/emr-sync/connections/${connectionId}/pull`, {});
    expect(again.status).toBe(200);
    expect(again.body.upserted).toMatchObject({ Patient: 1, Encounter: 0, Observation: 0 });
    expect(tokenCalls.length).toBe(before + 1);
  });

  it('sends a connection whose refresh is refused back to needs-reauthorization, says why, clears its tokens', async () => {
    const connectionId = await createConnection();
    await connect(connectionId, { expiresInMs: -1000, refreshToken: 'no-longer-valid' });
    const runsBefore = await app.db.syncRun.count({ where: { connectionId } });
    const before = tokenCalls.length;
    const res = await admin.post(`/api/emr-sync/connections/${connectionId}/pull`, {});
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      code: 'UNPROCESSABLE',
      message: 'The EMR refused to renew the access; connect again',
      correlationId: expect.any(String),
    });
    expect(tokenCalls.length).toBe(before + 1);
    const row = await app.db.emrConnection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(row).toMatchObject({
      status: 'needs-reauthorization',
      lastError: 'The EMR refused to renew the access; connect again',
      accessTokenSealed: null,
      refreshTokenSealed: null,
      tokenExpiresAt: null,
    });
    expect(await app.db.syncRun.count({ where: { connectionId } })).toBe(runsBefore);

    // Until it is connected again, a pull says so without calling the EHR.
    const later = await admin.post(`/api/emr-sync/connections/${connectionId}/pull`, {});
    expect(later.status).toBe(422);
    expect(later.body.message).toBe('The EMR refused to renew the access; connect again');
    expect(tokenCalls.length).toBe(before + 1);
  });

  it.each([400, 401, 403])(
    'reads invalid_grant answered with %i as a lost grant: needs-reauthorization, told to connect again',
    async (status) => {
      const connectionId = await createConnection();
      await connect(connectionId, { expiresInMs: -1000 });
      refuseNextToken = status;
      const before = tokenCalls.length;
      const res = await admin.post(`/api/emr-sync/connections/${connectionId}/pull`, {});
      expect(tokenCalls.length).toBe(before + 1);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        code: 'UNPROCESSABLE',
        message: 'The EMR refused to renew the access; connect again',
        correlationId: expect.any(String),
      });
      const row = await app.db.emrConnection.findUniqueOrThrow({ where: { id: connectionId } });
      expect(row).toMatchObject({ status: 'needs-reauthorization', accessTokenSealed: null, refreshTokenSealed: null });
      // What the integrations screen reads: the status and the sentence it shows beside "Connect again".
      const listed = await admin.get('/api/emr-sync/connections');
      const mine = listed.body.connections.find((c: { id: string }) => c.id === connectionId);
      expect(mine).toMatchObject({
        status: 'needs-reauthorization',
        lastError: 'The EMR refused to renew the access; connect again',
      });
    },
  );

  it("takes the next pull's since from the EHR's clock (its Date), not ours", async () => {
    const connectionId = await createConnection();
    await connect(connectionId, { expiresInMs: 3_600_000 });
    // The same sandbox EHR reached through the proxy, whose answers say the EHR's clock is in 2025.
    await app.db.emrConnection.update({
      where: { id: connectionId },
      data: { fhirBaseUrl: `${proxied}/api/sandbox-ehr/fhir` },
    });
    ehrDate = 'Wed, 01 Jan 2025 08:30:15 GMT';
    try {
      const res = await admin.post(`/api/emr-sync/connections/${connectionId}/pull`, {});
      expect(res.status).toBe(200);
      expect(res.body.nextSince).toBe('2025-01-01T08:30:15.000Z');
      const run = await app.db.syncRun.findUniqueOrThrow({ where: { id: res.body.syncRunId } });
      expect(run.cursor).toBe('2025-01-01T08:30:15.000Z');
    } finally {
      ehrDate = null;
    }
  });

  it('answers 422 with a sentence for a connection authorized without a patient context', async () => {
    const connectionId = await createConnection();
    await connect(connectionId, { expiresInMs: 10 * 60_000, patient: null });
    const res = await admin.post(`/api/emr-sync/connections/${connectionId}/pull`, {});
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'This connection was authorized without a patient in context, so there is nothing it may read; connect it again and pick a patient',
    );
  });

  it("is clinic-scoped: another clinic's connection is 404, and a session is required", async () => {
    const connectionId = await createConnection();
    await connect(connectionId, { expiresInMs: 10 * 60_000 });
    const south = await signIn(app, 'admin@southside.test');
    const before = tokenCalls.length;
    const res = await south.post(`/api/emr-sync/connections/${connectionId}/pull`, {});
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
    expect((await new HttpClient(app.url).post(`/api/emr-sync/connections/${connectionId}/pull`, {})).status).toBe(401);
    expect(tokenCalls.length).toBe(before);
    expect(await app.db.syncRun.count({ where: { connectionId, clinicId: 'clinic_south' } })).toBe(0);
  });

  it('needs integrations:read', async () => {
    const connectionId = await createConnection();
    const frontdesk = await signIn(app, 'frontdesk@northside.test');
    const res = await frontdesk.post(`/api/emr-sync/connections/${connectionId}/pull`, {});
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('SCOPE_MISSING');
  });
});
