// The REST adapter against the fake FHIR server: tenancy by namespaced id and clinic tag (a resource without the
// caller's tag is invisible even if its id is guessed, a clinic tag sent with a resource is dropped), per-source
// served ids, ids too long to namespace, signed cursors bound to the clinic, and no upstream total passed on.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFhirStore, type FakeFhirStore } from '@/test/fakes/fake-fhir-store';
import { CLINIC_TAG_SYSTEM, restFhirStore } from './rest-fhir-store';
import { servedId } from './served-resource';

let server: FakeFhirStore;
beforeAll(async () => {
  server = await startFakeFhirStore();
});
afterAll(async () => {
  await server?.close();
});

describe('restFhirStore', () => {
  it("stores under a namespaced id and tag, and reads back the clinic's own id and references", async () => {
    const store = restFhirStore({ baseUrl: server.baseUrl });
    const result = await store.upsertMany('clinic_a', [
      { resourceType: 'Patient', id: 'p1', meta: { versionId: '4' } },
      {
        resourceType: 'Observation',
        id: 'o1',
        subject: { reference: 'Patient/p1' },
        performer: [{ reference: 'https://elsewhere.example/Practitioner/x' }],
      },
    ]);
    expect(result.byType).toEqual({
      Patient: { created: 1, updated: 0, unchanged: 0 },
      Observation: { created: 1, updated: 0, unchanged: 0 },
    });
    const stored = [...server.resources.values()].find((r) => r.resourceType === 'Observation')!;
    expect(stored.id).toMatch(/^[0-9a-f]{12}-o1$/);
    expect(stored.subject).toEqual({ reference: `Patient/${stored.id.slice(0, 12)}-p1` });
    expect(stored.performer).toEqual([{ reference: 'https://elsewhere.example/Practitioner/x' }]);
    expect(stored.meta?.tag).toEqual([{ system: CLINIC_TAG_SYSTEM, code: 'clinic_a' }]);

    expect(await store.read('clinic_a', 'Observation', 'o1')).toEqual({
      resourceType: 'Observation',
      id: 'o1',
      subject: { reference: 'Patient/p1' },
      performer: [{ reference: 'https://elsewhere.example/Practitioner/x' }],
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
    const error = await restFhirStore({ baseUrl: server.baseUrl })
      .upsertMany('clinic_a', [{ resourceType: 'Patient', id: 'x'.repeat(60) }])
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UNPROCESSABLE' });
    expect(server.requests.total).toBe(before);
  });

  it('follows only cursors on its own origin and base path', async () => {
    const store = restFhirStore({ baseUrl: server.baseUrl });
    for (const target of [
      'http://127.0.0.1:1/fhir/Patient',
      `${new URL(server.baseUrl).origin}/admin/Patient`,
      'not a url',
    ]) {
      const cursor = Buffer.from(target).toString('base64url');
      await expect(store.search('clinic_a', { resourceType: 'Patient', count: 5, cursor })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
    }
  });

  it('keeps two sources that both send Patient/123 apart, each Observation pointing at its own patient', async () => {
    const store = restFhirStore({ baseUrl: server.baseUrl });
    const [a, b] = ['https://ehr-a.example/fhir', 'https://ehr-b.example/fhir'];
    const pull = (family: string) => [
      { resourceType: 'Patient', id: '123', name: [{ family }] },
      { resourceType: 'Observation', id: 'o1', subject: { reference: 'Patient/123' } },
    ];
    await store.upsertMany('clinic_two_sources', pull('FromA'), { sourceBaseUrl: a });
    const second = await store.upsertMany('clinic_two_sources', pull('FromB'), { sourceBaseUrl: b });
    expect(second.byType).toEqual({
      Patient: { created: 1, updated: 0, unchanged: 0 },
      Observation: { created: 1, updated: 0, unchanged: 0 },
    });

    const patients = (await store.search('clinic_two_sources', { resourceType: 'Patient', count: 10 })).resources;
    expect(patients.map((p) => [p.id, p.name]).sort()).toEqual(
      [
        [servedId(a, '123'), [{ family: 'FromA' }]],
        [servedId(b, '123'), [{ family: 'FromB' }]],
      ].sort(),
    );
    for (const [source, family] of [
      [a, 'FromA'],
      [b, 'FromB'],
    ] as const) {
      const found = await store.search('clinic_two_sources', {
        resourceType: 'Observation',
        patientId: servedId(source, '123'),
        count: 10,
      });
      expect(found.resources.map((o) => [o.id, o.subject])).toEqual([
        [servedId(source, 'o1'), { reference: `Patient/${servedId(source, '123')}` }],
      ]);
      expect(await store.read('clinic_two_sources', 'Patient', servedId(source, '123'))).toMatchObject({
        name: [{ family }],
        meta: { source: `${source}/Patient/123` },
      });
    }
  });

  it("removes a source's deletions in the same transaction, before its PUTs, and only that source's", async () => {
    const store = restFhirStore({ baseUrl: server.baseUrl });
    const [a, b] = ['https://ehr-a.example/fhir', 'https://ehr-b.example/fhir'];
    const obs = (id: string) => ({ resourceType: 'Observation', id, status: 'final' });
    await store.upsertMany('clinic_deletes', [obs('o1'), obs('o2')], { sourceBaseUrl: a });
    await store.upsertMany('clinic_deletes', [obs('o1')], { sourceBaseUrl: b });
    const result = await store.upsertMany('clinic_deletes', [obs('o2')], {
      sourceBaseUrl: a,
      deletes: [
        { resourceType: 'Observation', id: 'o1' },
        { resourceType: 'Observation', id: 'o2' },
        { resourceType: 'Observation', id: 'never-there' },
      ],
    });
    // o1 and o2 were removed (o2 then written again, as the embedded store does); never-there counts nothing.
    expect(result.deleted).toEqual({ Observation: 2 });
    const sent = server.receivedTransactions.at(-1)!.entry.map((e) => e.request.method);
    expect(sent).toEqual(['DELETE', 'DELETE', 'DELETE', 'PUT']);
    expect(await store.read('clinic_deletes', 'Observation', servedId(a, 'o1'))).toBeNull();
    // Deleted and sent again in the same pull: it stays.
    expect(await store.read('clinic_deletes', 'Observation', servedId(a, 'o2'))).not.toBeNull();
    // The other source's o1 is untouched.
    expect(await store.read('clinic_deletes', 'Observation', servedId(b, 'o1'))).not.toBeNull();
  });

  it("drops a clinic tag sent with a resource, so it never lands in another clinic's compartment", async () => {
    const store = restFhirStore({ baseUrl: server.baseUrl });
    const ownTag = { system: 'http://terminology.hl7.org/CodeSystem/v3-ActReason', code: 'HTEST' };
    await store.upsertMany('clinic_tagger', [
      {
        resourceType: 'Patient',
        id: 'tagged',
        meta: {
          tag: [
            ownTag,
            { system: CLINIC_TAG_SYSTEM, code: 'clinic_victim' },
            { system: CLINIC_TAG_SYSTEM, code: 'clinic_tagger' },
          ],
        },
      },
    ]);
    const stored = server.receivedTransactions.at(-1)!.entry[0]!.resource;
    expect(stored.meta?.tag).toEqual([ownTag, { system: CLINIC_TAG_SYSTEM, code: 'clinic_tagger' }]);
    expect((await store.search('clinic_victim', { resourceType: 'Patient', count: 10 })).resources).toEqual([]);
    expect(await store.read('clinic_tagger', 'Patient', 'tagged')).toMatchObject({ meta: { tag: [ownTag] } });
  });

  it('refuses an answer larger than its cap as the store being unavailable, without its text', async () => {
    const store = restFhirStore({ baseUrl: server.baseUrl, maxResponseBytes: 2000 });
    await store.upsertMany(
      'clinic_big',
      Array.from({ length: 30 }, (_, i) => ({
        resourceType: 'Patient',
        id: `big${i}`,
        text: { div: 'x'.repeat(100) },
      })),
    );
    const error = await store.search('clinic_big', { resourceType: 'Patient', count: 30 }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'DEPENDENCY_UNAVAILABLE',
      message: 'The FHIR store is unavailable',
      options: { cause: { purpose: 'fhir-store', reason: 'too-large' } },
    });
  });

  describe('search cursors and totals', () => {
    const seedFive = async (clinicId: string, store = restFhirStore({ baseUrl: server.baseUrl })) => {
      await store.upsertMany(
        clinicId,
        Array.from({ length: 5 }, (_, i) => ({ resourceType: 'Patient', id: `pg${i}` })),
      );
      return store;
    };

    it('pages with signed cursors through every match once', async () => {
      const store = await seedFive('clinic_pages');
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await store.search('clinic_pages', {
          resourceType: 'Patient',
          count: 2,
          ...(cursor && { cursor }),
        });
        seen.push(...page.resources.map((r) => r.id));
        cursor = page.nextCursor ?? undefined;
        if (cursor) expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
      } while (cursor);
      expect(seen.sort()).toEqual(['pg0', 'pg1', 'pg2', 'pg3', 'pg4']);
    });

    it('refuses a forged cursor, even one naming the store itself, before any request', async () => {
      const store = await seedFive('clinic_forger');
      // The store's own search URL for another clinic's tag: exactly what a forged cursor would ask for.
      const target = `${server.baseUrl}/Patient?_tag=${encodeURIComponent(`${CLINIC_TAG_SYSTEM}|clinic_pages`)}&_count=50`;
      const forged = [
        `${Buffer.from(target).toString('base64url')}.${randomBytes(32).toString('base64url')}`,
        `${Buffer.from(target).toString('base64url')}`,
        `${Buffer.from(target).toString('base64url')}.`,
        'a.b.c',
      ];
      const before = server.requests.total;
      for (const cursor of forged) {
        const error = await store
          .search('clinic_forger', { resourceType: 'Patient', count: 2, cursor })
          .catch((e: unknown) => e);
        expect(error).toMatchObject({
          code: 'VALIDATION_FAILED',
          message: 'The page link is not valid; start the search again',
        });
      }
      expect(server.requests.total).toBe(before);
    });

    it("refuses Northside's cursor for Southside, and a cursor signed under another key", async () => {
      const key = randomBytes(32);
      const store = await seedFive('clinic_north_rest', restFhirStore({ baseUrl: server.baseUrl, cursorKey: key }));
      const first = await store.search('clinic_north_rest', { resourceType: 'Patient', count: 2 });
      expect(first.nextCursor).not.toBeNull();
      const cursor = first.nextCursor!;
      const before = server.requests.total;
      await expect(
        store.search('clinic_south_rest', { resourceType: 'Patient', count: 2, cursor }),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      await expect(
        store.search('clinic_north_rest', { resourceType: 'Observation', count: 2, cursor }),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      await expect(
        restFhirStore({ baseUrl: server.baseUrl, cursorKey: randomBytes(32) }).search('clinic_north_rest', {
          resourceType: 'Patient',
          count: 2,
          cursor,
        }),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(server.requests.total).toBe(before);
      // The same key (another instance of the deployment) accepts it.
      const again = await restFhirStore({ baseUrl: server.baseUrl, cursorKey: key }).search('clinic_north_rest', {
        resourceType: 'Patient',
        count: 2,
        cursor,
      });
      expect(again.resources).toHaveLength(2);
    });

    it("never passes the server's Bundle.total on: only what this clinic was served, when one page held it all", async () => {
      const store = await seedFive('clinic_total');
      const paged = await store.search('clinic_total', { resourceType: 'Patient', count: 2 });
      expect(paged.total).toBeUndefined();
      const last = await store.search('clinic_total', {
        resourceType: 'Patient',
        count: 2,
        cursor: (await store.search('clinic_total', { resourceType: 'Patient', count: 4 })).nextCursor!,
      });
      expect(last.total).toBeUndefined();
      // A row the shared server counts under the clinic's tag but that is not the clinic's (no clinic prefix):
      // the server's total says 6, the clinic is served 5 and told 5.
      server.resources.set('Patient/planted', {
        resourceType: 'Patient',
        id: 'planted',
        meta: { lastUpdated: '2030-01-01T00:00:00Z', tag: [{ system: CLINIC_TAG_SYSTEM, code: 'clinic_total' }] },
      });
      const whole = await store.search('clinic_total', { resourceType: 'Patient', count: 50 });
      expect(whole.resources).toHaveLength(5);
      expect(whole.total).toBe(5);
      const before = server.requests.total;
      expect(await store.search('clinic_total', { resourceType: 'Patient', count: 0 })).toEqual({
        resources: [],
        nextCursor: null,
      });
      expect(server.requests.total).toBe(before);
      expect(
        server.receivedSearches.every((url) => !url.searchParams.has('_total') && !url.searchParams.has('_summary')),
      ).toBe(true);
    });
  });
});
