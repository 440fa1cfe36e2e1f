// FHIR_STORE_URL: the same pull and FHIR API over an external FHIR R4 server (the fake store). A pull is ONE
// transaction Bundle of PUTs; clinics are kept apart by namespaced ids and a clinic tag; resources are served
// under per-source ids; search cursors are bound to the clinic and the store's Bundle.total is never passed on;
// a refused or unreachable store is 503 with nothing written; nothing lands in the app's own FhirResource table.
import { createHash } from 'node:crypto';
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeEmr, type FakeEmr } from '../fakes/fake-emr';
import { startFakeFhirStore, type FakeFhirStore } from '../fakes/fake-fhir-store';
import { restFhirStore } from '@/lib/fhir/rest-fhir-store';
import { servedId } from '@/lib/fhir/served-resource';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { holdStepUp } from '../support/step-up-claim';
import { createUser, TEST_PASSWORD, type TestTenant } from '../support/factories';

const CLINIC_TAG = 'urn:clinic-revenue-platform:clinic';
const key = (clinicId: string) => createHash('sha256').update(clinicId).digest('hex').slice(0, 12);
// Clinics are created from this list, each bound to the whole EHR population (the operator's binding).
const CLINIC_IDS = Array.from({ length: 30 }, (_, i) => `clinic_rest_${i}`);

let emr: FakeEmr;
let store: FakeFhirStore;
let app: TestApp;

beforeAll(async () => {
  const pair = await generateKeyPair('ES384', { extractable: true });
  emr = await startFakeEmr({
    clientId: 'backend-client',
    publicKeyPem: await exportSPKI(pair.publicKey),
    keyId: 'k1',
    pageSize: 3,
  });
  store = await startFakeFhirStore();
  app = await startApp({
    env: {
      SMART_CLIENT_ID: 'backend-client',
      SMART_PRIVATE_KEY: await exportPKCS8(pair.privateKey),
      SMART_KEY_ID: 'k1',
      EMR_VENDORS: JSON.stringify({
        'smart-backend': {
          tokenUrl: emr.tokenUrl,
          fhirBaseUrl: emr.fhirBaseUrl,
          groups: Object.fromEntries(CLINIC_IDS.map((id) => [id, '*'])),
        },
      }),
      FHIR_STORE_URL: store.baseUrl,
    },
  });
});
afterAll(async () => {
  await app?.stop();
  await emr?.close();
  await store?.close().catch(() => undefined);
});

let clinicSeq = 0;
async function freshClinic() {
  const clinicId = CLINIC_IDS[clinicSeq++];
  if (!clinicId) throw new Error('more clinics than CLINIC_IDS lists: lengthen it');
  const tenant: TestTenant = { orgId: `org_${clinicId}`, clinicId, clinicName: `Rest ${clinicId}` };
  await app.db.organization.create({ data: { id: tenant.orgId, name: `Org ${clinicId}` } });
  await app.db.clinic.create({
    data: {
      id: clinicId,
      orgId: tenant.orgId,
      name: tenant.clinicName,
      billingNpi: '1234567893',
      billingProviderName: 'Rest Billing',
    },
  });
  const client = await signIn(app, (await createUser(app.db, tenant)).email, TEST_PASSWORD);
  const connectionId = (
    await (await holdStepUp(app, client)).post('/api/emr-sync/connections', { vendor: 'smart-backend' })
  ).body.connection.id as string;
  return { tenant, client, connectionId };
}

/** The id the pulled EMR's resource is served under. */
const served = (id: string) => servedId(emr.fhirBaseUrl, id);
const storedFor = (clinicId: string) =>
  [...store.resources.values()].filter((r) =>
    (r.meta?.tag as Array<{ code: string }> | undefined)?.some((t) => t.code === clinicId),
  );

describe('the external FHIR store', () => {
  it('receives a pull as one transaction Bundle of PUTs, namespaced and tagged by clinic', async () => {
    const { tenant, client, connectionId } = await freshClinic();
    const transactions = store.requests.transactions;
    const res = await client.post('/api/emr-sync/smart/pull', { connectionId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: true,
      fhirStore: 'external',
      upserted: { Patient: 2, Encounter: 4, Observation: 6, Condition: 3, MedicationRequest: 3, AllergyIntolerance: 2 },
    });
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
    const obs = bundle.entry.find((e) => e.resource.id === `${prefix}-${served('obs-1')}`)!;
    expect(obs.resource.subject).toEqual({ reference: `Patient/${prefix}-${served('pat-1')}` });
    expect(await app.db.fhirResource.count()).toBe(0);
  });

  it('reads and searches back through the same API, with the served ids and references', async () => {
    const { client, connectionId } = await freshClinic();
    await client.post('/api/emr-sync/smart/pull', { connectionId });
    const read = await client.get(`/api/fhir/Patient/${served('pat-1')}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      resourceType: 'Patient',
      id: served('pat-1'),
      meta: { versionId: '1', source: `${emr.fhirBaseUrl}/Patient/pat-1/_history/1` },
    });
    expect(read.body.meta.tag).toBeUndefined();
    expect(read.headers.get('etag')).toBe('W/"1"');

    const seen: string[] = [];
    let url: string | undefined = `/api/fhir/Observation?patient=${served('pat-1')}&_count=2`;
    while (url) {
      const page: { status: number; body: any } = await client.get(url);
      expect(page.status).toBe(200);
      for (const entry of page.body.entry) {
        expect(entry.resource.subject).toEqual({ reference: `Patient/${served('pat-1')}` });
        seen.push(entry.resource.id);
      }
      url = page.body.link.find((l: { relation: string }) => l.relation === 'next')?.url;
    }
    expect(seen.sort()).toEqual(['obs-1', 'obs-4', 'obs-5'].map(served).sort());
  });

  it('keeps clinics apart: another clinic neither reads nor finds the resources', async () => {
    const { client, connectionId } = await freshClinic();
    await client.post('/api/emr-sync/smart/pull', { connectionId });
    const other = await freshClinic();
    expect((await other.client.get(`/api/fhir/Patient/${served('pat-1')}`)).status).toBe(404);
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

  it("refuses a forged cursor that runs a search on the store for another clinic's tag, with no call made", async () => {
    const north = await freshClinic();
    await north.client.post('/api/emr-sync/smart/pull', { connectionId: north.connectionId });
    const south = await freshClinic();
    const searches = store.receivedSearches.length;
    for (const query of ['_summary=count', '_count=50']) {
      const target = `${store.baseUrl}/Observation?_tag=${encodeURIComponent(`${CLINIC_TAG}|${north.tenant.clinicId}`)}&${query}`;
      const res = await south.client.get(`/api/fhir/Observation?_cursor=${Buffer.from(target).toString('base64url')}`);
      expect([res.status, res.body.issue?.[0]?.details?.text]).toEqual([
        400,
        'The page link is not valid; start the search again',
      ]);
      expect(res.body.total).toBeUndefined();
    }
    expect(store.receivedSearches.length).toBe(searches);
  });

  it("refuses Northside's next link to Southside, and serves it to Northside", async () => {
    const north = await freshClinic();
    await north.client.post('/api/emr-sync/smart/pull', { connectionId: north.connectionId });
    const south = await freshClinic();
    await south.client.post('/api/emr-sync/smart/pull', { connectionId: south.connectionId });
    const first = await north.client.get('/api/fhir/Observation?_count=2');
    const next = (first.body.link as Array<{ relation: string; url: string }>).find((l) => l.relation === 'next')!.url;
    const stolen = await south.client.get(next);
    expect([stolen.status, stolen.body.issue?.[0]?.details?.text]).toEqual([
      400,
      'The page link is not valid; start the search again',
    ]);
    const own = await north.client.get(next);
    expect(own.status).toBe(200);
    expect(own.body.entry).toHaveLength(2);
  });

  it("never passes the store's Bundle.total on: none on a paged search, and only what was served on a whole one", async () => {
    const { tenant, client, connectionId } = await freshClinic();
    await client.post('/api/emr-sync/smart/pull', { connectionId });
    // A row the shared store counts under this clinic's tag that is not this clinic's (no clinic prefix).
    store.resources.set('Observation/planted', {
      resourceType: 'Observation',
      id: 'planted',
      meta: { lastUpdated: '2030-01-01T00:00:00Z', tag: [{ system: CLINIC_TAG, code: tenant.clinicId }] },
    });
    const paged = await client.get('/api/fhir/Observation?_count=2');
    expect(paged.status).toBe(200);
    expect(paged.body.total).toBeUndefined();
    const whole = await client.get('/api/fhir/Observation');
    expect([whole.body.entry.length, whole.body.total]).toEqual([6, 6]);
    const countOnly = await client.get('/api/fhir/Observation?_count=0');
    expect(countOnly.status).toBe(200);
    expect(countOnly.body.total).toBeUndefined();
    store.resources.delete('Observation/planted');
  });

  it('serves two sources that both send Patient/123 as two patients, each Observation pointing at its own', async () => {
    const { tenant, client } = await freshClinic();
    const [a, b] = ['https://ehr-a.example/fhir', 'https://ehr-b.example/fhir'];
    const writer = restFhirStore({ baseUrl: store.baseUrl });
    for (const [source, family] of [
      [a, 'FromA'],
      [b, 'FromB'],
    ] as const) {
      await writer.upsertMany(
        tenant.clinicId,
        [
          { resourceType: 'Patient', id: '123', name: [{ family }] },
          { resourceType: 'Observation', id: 'o1', status: 'final', subject: { reference: 'Patient/123' } },
        ],
        { sourceBaseUrl: source },
      );
    }
    const patients = await client.get('/api/fhir/Patient');
    expect(
      (patients.body.entry as Array<{ resource: { id: string; name: unknown } }>)
        .map((e) => [e.resource.id, e.resource.name])
        .sort(),
    ).toEqual(
      [
        [servedId(a, '123'), [{ family: 'FromA' }]],
        [servedId(b, '123'), [{ family: 'FromB' }]],
      ].sort(),
    );
    for (const [source, family] of [
      [a, 'FromA'],
      [b, 'FromB'],
    ] as const) {
      const patient = await client.get(`/api/fhir/Patient/${servedId(source, '123')}`);
      expect(patient.body).toMatchObject({ id: servedId(source, '123'), name: [{ family }] });
      const observations = await client.get(`/api/fhir/Observation?patient=${servedId(source, '123')}`);
      expect(
        observations.body.entry.map((e: { resource: { id: string; subject: unknown } }) => [
          e.resource.id,
          e.resource.subject,
        ]),
      ).toEqual([[servedId(source, 'o1'), { reference: `Patient/${servedId(source, '123')}` }]]);
    }
  });

  it('answers 503 with nothing stored when the store refuses the transaction', async () => {
    const { tenant, client, connectionId } = await freshClinic();
    store.failNext('POST', 500);
    const res = await client.post('/api/emr-sync/smart/pull', { connectionId });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      code: 'DEPENDENCY_UNAVAILABLE',
      message: 'The FHIR store is unavailable; nothing was saved',
      correlationId: expect.any(String),
    });
    expect(storedFor(tenant.clinicId)).toEqual([]);
  });

  it('answers 503 when the store is unreachable, on pulls and reads alike', async () => {
    const { client, connectionId } = await freshClinic();
    await store.close();
    const pull = await client.post('/api/emr-sync/smart/pull', { connectionId });
    expect(pull.status).toBe(503);
    expect(pull.body.code).toBe('DEPENDENCY_UNAVAILABLE');
    const read = await client.get(`/api/fhir/Patient/${served('pat-1')}`);
    expect(read.status).toBe(503);
    expect(read.body).toMatchObject({
      resourceType: 'OperationOutcome',
      issue: [{ code: 'transient', details: { text: 'The FHIR store is unavailable' } }],
    });
    expect(await new HttpClient(app.url).get('/api/health')).toMatchObject({ status: 200 });
  });
});
