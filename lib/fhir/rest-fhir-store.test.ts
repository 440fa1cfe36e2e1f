// The REST adapter against the fake FHIR server: tenancy by namespaced id and clinic tag (a resource without the
// caller's tag is invisible even if its id is guessed), ids too long to namespace, and forged cursors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFhirStore, type FakeFhirStore } from '@/test/fakes/fake-fhir-store';
import { CLINIC_TAG_SYSTEM, restFhirStore } from './rest-fhir-store';

let server: FakeFhirStore;
beforeAll(async () => { server = await startFakeFhirStore(); });
afterAll(async () => { await server?.close(); });

describe('restFhirStore', () => {
  it('stores under a namespaced id and tag, and reads back the clinic\'s own id and references', async () => {
    const store = restFhirStore({ baseUrl: server.baseUrl });
    const result = await store.upsertMany('clinic_a', [
      { resourceType: 'Patient', id: 'p1', meta: { versionId: '4' } },
      { resourceType: 'Observation', id: 'o1', subject: { reference: 'Patient/p1' }, performer: [{ reference: 'https://elsewhere.example/Practitioner/x' }] },
    ]);
    expect(result.byType).toEqual({ Patient: { created: 1, updated: 0, unchanged: 0 }, Observation: { created: 1, updated: 0, unchanged: 0 } });
    const stored = [...server.resources.values()].find((r) => r.resourceType === 'Observation')!;
    expect(stored.id).toMatch(/^[0-9a-f]{12}-o1$/);
    expect(stored.subject).toEqual({ reference: `Patient/${stored.id.slice(0, 12)}-p1` });
    expect(stored.performer).toEqual([{ reference: 'https://elsewhere.example/Practitioner/x' }]);
    expect(stored.meta?.tag).toEqual([{ system: CLINIC_TAG_SYSTEM, code: 'clinic_a' }]);

    expect(await store.read('clinic_a', 'Observation', 'o1')).toEqual({
      resourceType: 'Observation', id: 'o1', subject: { reference: 'Patient/p1' }, performer: [{ reference: 'https://elsewhere.example/Practitioner/x' }],
      meta: { versionId: '1', lastUpdated: expect.any(String) },
    });
    expect(await store.read('clinic_b', 'Observation', 'o1')).toBeNull();
  });

  it('ignores a resource whose id has the clinic prefix but not the clinic tag', async () => {
    const store = restFhirStore({ baseUrl: server.baseUrl });
    await store.upsertMany('clinic_c', [{ resourceType: 'Patient', id: 'p9' }]);
    const row = [...server.resources.values()].find((r) => r.id.endsWith('-p9'))!;
    row.meta = { ...row.meta, tag: [{ system: CLINIC_TAG_SYSTEM, code: 'someone_else' }] };
    expect(await store.read('clinic_c', 'Patient', 'p9')).toBeNull();
  });

  it('refuses an id too long to namespace, before any request', async () => {
    const before = server.requests.total;
    const error = await restFhirStore({ baseUrl: server.baseUrl }).upsertMany('clinic_a', [{ resourceType: 'Patient', id: 'x'.repeat(60) }]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UNPROCESSABLE' });
    expect(server.requests.total).toBe(before);
  });

  it('follows only cursors on its own origin and base path', async () => {
    const store = restFhirStore({ baseUrl: server.baseUrl });
    for (const target of ['http://127.0.0.1:1/fhir/Patient', `${new URL(server.baseUrl).origin}/admin/Patient`, 'not a url']) {
      const cursor = Buffer.from(target).toString('base64url');
      await expect(store.search('clinic_a', { resourceType: 'Patient', count: 5, cursor })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });
});
