// FHIR_STORE_URL: the same pull and FHIR API over an external FHIR R4 server (the fake store). A pull is ONE
// transaction Bundle of PUTs; clinics are kept apart by namespaced ids and a clinic tag; a refused or
// unreachable store is 503 with nothing written; nothing lands in the app's own FhirResource table.
import { createHash } from 'node:crypto';
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeEmr, type FakeEmr } from '../fakes/fake-emr';
import { startFakeFhirStore, type FakeFhirStore } from '../fakes/fake-fhir-store';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createTenant, createUser, TEST_PASSWORD } from '../support/factories';

const CLINIC_TAG = 'urn:clinic-revenue-platform:clinic';
const key = (clinicId: string) => createHash('sha256').update(clinicId).digest('hex').slice(0, 12);

let emr: FakeEmr;
let store: FakeFhirStore;
let app: TestApp;

beforeAll(async () => {
  const pair = await generateKeyPair('ES384', { extractable: true });
  emr = await startFakeEmr({ clientId: 'backend-client', publicKeyPem: await exportSPKI(pair.publicKey), keyId: 'k1', pageSize: 3 });
  store = await startFakeFhirStore();
  app = await startApp({
    env: {
      SMART_CLIENT_ID: 'backend-client', SMART_PRIVATE_KEY: await exportPKCS8(pair.privateKey), SMART_KEY_ID: 'k1',
      EMR_VENDORS: JSON.stringify({ 'smart-backend': { tokenUrl: emr.tokenUrl, fhirBaseUrl: emr.fhirBaseUrl } }),
      FHIR_STORE_URL: store.baseUrl,
    },
  });
});
afterAll(async () => {
  await app?.stop();
  await emr?.close();
  await store?.close().catch(() => undefined);
});

async function freshClinic() {
  const tenant = await createTenant(app.db, 'Rest');
  const client = await signIn(app, (await createUser(app.db, tenant)).email, TEST_PASSWORD);
  const connectionId = (await client.post('/api/emr-sync/connections', { vendor: 'smart-backend' })).body.connection.id as string;
  return { tenant, client, connectionId };
}

const storedFor = (clinicId: string) => [...store.resources.values()].filter((r) => (r.meta?.tag as Array<{ code: string }> | undefined)?.some((t) => t.code === clinicId));

describe('the external FHIR store', () => {
  it('receives a pull as one transaction Bundle of PUTs, namespaced and tagged by clinic', async () => {
    const { tenant, client, connectionId } = await freshClinic();
    const transactions = store.requests.transactions;
    const res = await client.post('/api/emr-sync/smart/pull', { connectionId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, fhirStore: 'external', upserted: { Patient: 2, Encounter: 4, Observation: 6, Condition: 3, MedicationRequest: 3, AllergyIntolerance: 2 } });
    expect(store.requests.transactions).toBe(transactions + 1);
    const bundle = store.receivedTransactions.at(-1)!;
    expect(bundle.type).toBe('transaction');
    expect(bundle.entry).toHaveLength(20);
    const prefix = key(tenant.clinicId);
    for (const entry of bundle.entry) {
      expect(entry.request).toEqual({ method: 'PUT', url: `${entry.resource.resourceType}/${entry.resource.id}` });
      expect(entry.resource.id.startsWith(`${prefix}-`)).toBe(true);
      expect(entry.resource.meta?.tag).toEqual([{ system: CLINIC_TAG, code: tenant.clinicId }]);
    }
    const obs = bundle.entry.find((e) => e.resource.id === `${prefix}-obs-1`)!;
    expect(obs.resource.subject).toEqual({ reference: `Patient/${prefix}-pat-1` });
    expect(await app.db.fhirResource.count()).toBe(0);
  });

  it('reads and searches back through the same API, with the clinic\'s own ids and references', async () => {
    const { client, connectionId } = await freshClinic();
    await client.post('/api/emr-sync/smart/pull', { connectionId });
    const read = await client.get('/api/fhir/Patient/pat-1');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ resourceType: 'Patient', id: 'pat-1', meta: { versionId: '1' } });
    expect(read.body.meta.tag).toBeUndefined();
    expect(read.headers.get('etag')).toBe('W/"1"');

    const seen: string[] = [];
    let url: string | undefined = '/api/fhir/Observation?patient=pat-1&_count=2';
    while (url) {
      const page: { status: number; body: any } = await client.get(url);
      expect(page.status).toBe(200);
      for (const entry of page.body.entry) {
        expect(entry.resource.subject).toEqual({ reference: 'Patient/pat-1' });
        seen.push(entry.resource.id);
      }
      url = page.body.link.find((l: { relation: string }) => l.relation === 'next')?.url;
    }
    expect(seen.sort()).toEqual(['obs-1', 'obs-4', 'obs-5']);
  });

  it("keeps clinics apart: another clinic neither reads nor finds the resources", async () => {
    const { client, connectionId } = await freshClinic();
    await client.post('/api/emr-sync/smart/pull', { connectionId });
    const other = await freshClinic();
    expect((await other.client.get('/api/fhir/Patient/pat-1')).status).toBe(404);
    expect((await other.client.get('/api/fhir/Patient')).body.total).toBe(0);
  });

  it('keeps versions when a pull repeats unchanged resources', async () => {
    const { tenant, client, connectionId } = await freshClinic();
    await client.post('/api/emr-sync/smart/pull', { connectionId });
    await client.post('/api/emr-sync/smart/pull', { connectionId });
    expect(storedFor(tenant.clinicId).map((r) => r.meta?.versionId)).toEqual(Array(20).fill('1'));
  });

  it('refuses a cursor that points anywhere but the store', async () => {
    const { client } = await freshClinic();
    const forged = Buffer.from('http://169.254.169.254/latest/meta-data').toString('base64url');
    const res = await client.get(`/api/fhir/Patient?_cursor=${forged}`);
    expect(res.status).toBe(400);
    expect(res.body.issue[0].details.text).toBe('The page link is not valid; start the search again');
  });

  it('answers 503 with nothing stored when the store refuses the transaction', async () => {
    const { tenant, client, connectionId } = await freshClinic();
    store.failNext('POST', 500);
    const res = await client.post('/api/emr-sync/smart/pull', { connectionId });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ code: 'DEPENDENCY_UNAVAILABLE', message: 'The FHIR store is unavailable; nothing was saved', correlationId: expect.any(String) });
    expect(storedFor(tenant.clinicId)).toEqual([]);
  });

  it('answers 503 when the store is unreachable, on pulls and reads alike', async () => {
    const { client, connectionId } = await freshClinic();
    await store.close();
    const pull = await client.post('/api/emr-sync/smart/pull', { connectionId });
    expect(pull.status).toBe(503);
    expect(pull.body.code).toBe('DEPENDENCY_UNAVAILABLE');
    const read = await client.get('/api/fhir/Patient/pat-1');
    expect(read.status).toBe(503);
    expect(read.body).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'transient', details: { text: 'The FHIR store is unavailable' } }] });
    expect(await new HttpClient(app.url).get('/api/health')).toMatchObject({ status: 200 });
  });
});
