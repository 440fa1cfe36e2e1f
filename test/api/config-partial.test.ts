// A deployment waiting for some credentials still serves (DECISIONS "Environments and fail-closed"): a partly
// set group starts the server, is named once in a boot warning, and every request that needs the feature gets
// its typed 501/503 with zero calls to the configured URL. Sign-in and everything else keep working.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { holdStepUp } from '../support/step-up-claim';
import { createPatient, createTenant, createUser, TEST_PASSWORD } from '../support/factories';

/**
 * Stands where the partner, the EHR and the CORE payer would be: it only counts what reaches it. Production takes
 * only https URLs for them, so it counts TCP connections: a TLS attempt on this plain server is a call too.
 */
async function countingServer(): Promise<{ url: string; calls: () => number; close(): Promise<void> }> {
  let calls = 0;
  const server = http.createServer((req, res) => {
    res.writeHead(500).end();
  });
  server.on('connection', () => {
    calls += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    calls: () => calls,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

let outside: Awaited<ReturnType<typeof countingServer>>;
let app: TestApp;
let client: HttpClient;
let patientId: string;

beforeAll(async () => {
  outside = await countingServer();
  app = await startApp({
    env: {
      SVC_ENV: 'production',
      PARTNER_API_URL: `${outside.url}/partner`, // PARTNER_API_KEY missing: waiting for the partner's credentials
      ELIGIBILITY_CORE_URL: `${outside.url}/core`, // username, password and ids missing
      SMART_CLIENT_ID: 'backend-client', // key and key id missing
      EMR_VENDORS: JSON.stringify({ 'smart-backend': { fhirBaseUrl: `${outside.url}/fhir` } }),
    },
  });
  const tenant = await createTenant(app.db, 'Partial');
  const user = await createUser(app.db, tenant);
  patientId = (await createPatient(app.db, tenant)).id;
  client = await signIn(app, user.email, TEST_PASSWORD);
});
afterAll(async () => {
  await app?.stop();
  await outside?.close();
});

describe('a partly configured deployment', () => {
  it('starts, answers health ok in production, and signs staff in', async () => {
    const health = await fetch(`${app.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', mode: 'production', database: 'ok' });
    const session = await client.get('/api/auth/session');
    expect(session.status).toBe(200);
  });

  it('names each switched-off feature once at boot, never a secret value', () => {
    const logs = app.logs();
    expect(logs.match(/PARTNER_API_KEY not set \(PARTNER_API_URL is\)/g)).toHaveLength(1);
    expect(logs).toContain('SMART_PRIVATE_KEY, SMART_KEY_ID not set (SMART_CLIENT_ID is)');
    expect(logs).toContain(
      'ELIGIBILITY_CORE_USERNAME, ELIGIBILITY_CORE_PASSWORD, ELIGIBILITY_SENDER_ID, ELIGIBILITY_RECEIVER_ID not set',
    );
    expect(logs).toContain('EMR_VENDORS[\\"smart-backend\\"] has no tokenUrl');
  });

  it('refuses the partner pull with 501 and no call to the partner', async () => {
    const res = await client.post('/api/emr-sync/partner/pull', { date: '2026-11-01' });
    expect(res.status).toBe(501);
    expect(res.body).toEqual({
      code: 'NOT_CONFIGURED',
      message: 'The partner API is not configured',
      correlationId: expect.any(String),
    });
    expect(outside.calls()).toBe(0);
  });

  it('refuses the SMART pull with 501 and no call to the EHR', async () => {
    const created = await (
      await holdStepUp(app, client)
    ).post('/api/emr-sync/connections', { vendor: 'smart-backend' });
    expect(created.status).toBe(201);
    const res = await client.post('/api/emr-sync/smart/pull', { connectionId: created.body.connection.id });
    expect(res.status).toBe(501);
    expect(res.body.code).toBe('NOT_CONFIGURED');
    expect(outside.calls()).toBe(0);
  });

  it('refuses eligibility with 503 and no 270 sent anywhere', async () => {
    const res = await client.post('/api/eligibility/verify', {
      patientId,
      firstName: 'Test',
      lastName: 'Patient',
      dob: '1980-01-02',
      memberId: 'W123456789',
      payerName: 'Aetna',
      npi: '1234567893',
    });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('DEPENDENCY_UNAVAILABLE');
    expect(JSON.stringify(res.body)).not.toMatch(/ELIGIBILITY_CORE|127\.0\.0\.1/);
    expect(outside.calls()).toBe(0);
  });
});
