// The embedded FHIR store against a real PostgreSQL database: versioning by content, idempotence under
// concurrency (one row, no duplicate-key failure), all-or-nothing writes, keyset paging and the search filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '@/lib/db';
import { AppError } from '@/lib/errors';
import { createTestDatabase, type TestDatabase } from '@/test/support/postgres';
import { embeddedFhirStore } from './embedded-fhir-store';
import { servedId } from './served-resource';
import type { FhirResource } from './types';

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDb({ kind: 'postgres', url: database.url });
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

let clinicSeq = 0;
const newClinic = () => `clinic_store_${Date.now()}_${clinicSeq++}`;
const patient = (id: string, family = 'Testperson'): FhirResource => ({
  resourceType: 'Patient',
  id,
  meta: { versionId: '7', lastUpdated: '2024-01-05T09:00:00Z' },
  name: [{ family }],
});
const observation = (id: string, patientId: string): FhirResource => ({
  resourceType: 'Observation',
  id,
  status: 'final',
  subject: { reference: `Patient/${patientId}` },
});

describe('embeddedFhirStore.upsertMany', () => {
  it('stores new resources at version 1 with its own meta, under the served id, the source kept in meta.source', async () => {
    const clinicId = newClinic();
    const at = new Date('2026-02-03T04:05:06.789Z');
    const store = embeddedFhirStore(db, { clock: () => at });
    const source = 'https://emr.example/fhir';
    const result = await store.upsertMany(clinicId, [patient('p1'), observation('o1', 'p1')], {
      sourceBaseUrl: `${source}/`,
    });
    expect(result.byType).toEqual({
      Patient: { created: 1, updated: 0, unchanged: 0 },
      Observation: { created: 1, updated: 0, unchanged: 0 },
    });
    const row = await db.fhirResource.findUniqueOrThrow({
      where: {
        clinicId_source_resourceType_resourceId: {
          clinicId,
          source,
          resourceType: 'Patient',
          resourceId: servedId(source, 'p1'),
        },
      },
    });
    expect(row).toMatchObject({ versionId: 1, lastUpdated: at, contentHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(row.resource).toEqual({
      resourceType: 'Patient',
      id: servedId(source, 'p1'),
      name: [{ family: 'Testperson' }],
      meta: { versionId: '1', lastUpdated: at.toISOString(), source: 'https://emr.example/fhir/Patient/p1/_history/7' },
    });
    expect(await store.read(clinicId, 'Observation', servedId(source, 'o1'))).toMatchObject({
      subject: { reference: `Patient/${servedId(source, 'p1')}` },
    });
  });

  it('keeps two sources that both send Patient/123 apart: two patients, each Observation pointing at its own', async () => {
    const clinicId = newClinic();
    const store = embeddedFhirStore(db);
    const [a, b] = ['https://ehr-a.example/fhir', 'https://ehr-b.example/fhir'];
    await store.upsertMany(clinicId, [patient('123', 'FromA'), observation('o1', '123')], { sourceBaseUrl: a });
    const second = await store.upsertMany(clinicId, [patient('123', 'FromB'), observation('o1', '123')], {
      sourceBaseUrl: b,
    });
    // B's pull created its own rows; it did not update A's.
    expect(second.byType).toEqual({
      Patient: { created: 1, updated: 0, unchanged: 0 },
      Observation: { created: 1, updated: 0, unchanged: 0 },
    });

    const patients = (await store.search(clinicId, { resourceType: 'Patient', count: 10 })).resources;
    expect(patients.map((p) => [p.id, p.name]).sort()).toEqual(
      [
        [servedId(a, '123'), [{ family: 'FromA' }]],
        [servedId(b, '123'), [{ family: 'FromB' }]],
      ].sort(),
    );
    for (const source of [a, b]) {
      const found = await store.search(clinicId, {
        resourceType: 'Observation',
        patientId: servedId(source, '123'),
        count: 10,
      });
      expect(found.resources.map((o) => [o.id, o.subject])).toEqual([
        [servedId(source, 'o1'), { reference: `Patient/${servedId(source, '123')}` }],
      ]);
      expect(await store.read(clinicId, 'Patient', servedId(source, '123'))).toMatchObject({
        name: [{ family: source === a ? 'FromA' : 'FromB' }],
      });
    }
    const rows = await db.fhirResource.findMany({
      where: { clinicId, resourceType: 'Patient' },
      orderBy: { source: 'asc' },
    });
    expect(rows.map((r) => [r.source, r.versionId])).toEqual([
      [a, 1],
      [b, 1],
    ]);
  });

  it('keeps the version of an unchanged resource and bumps it once per change, meta and column alike', async () => {
    const clinicId = newClinic();
    let now = new Date('2026-01-01T00:00:00.000Z');
    const store = embeddedFhirStore(db, { clock: () => now });
    await store.upsertMany(clinicId, [patient('p1')]);
    now = new Date('2026-01-02T00:00:00.000Z');
    // Same content, new EMR version and lastUpdated: not a change for us.
    const same = await store.upsertMany(clinicId, [
      { ...patient('p1'), meta: { versionId: '8', lastUpdated: '2025-01-01T00:00:00Z' } },
    ]);
    expect(same.byType.Patient).toEqual({ created: 0, updated: 0, unchanged: 1 });
    let row = await db.fhirResource.findFirstOrThrow({ where: { clinicId } });
    expect([row.versionId, (row.resource as FhirResource).meta?.versionId, row.lastUpdated.toISOString()]).toEqual([
      1,
      '1',
      '2026-01-01T00:00:00.000Z',
    ]);

    now = new Date('2026-01-03T00:00:00.000Z');
    const changed = await store.upsertMany(clinicId, [patient('p1', 'Renamed')]);
    expect(changed.byType.Patient).toEqual({ created: 0, updated: 1, unchanged: 0 });
    row = await db.fhirResource.findFirstOrThrow({ where: { clinicId } });
    expect(row.versionId).toBe(2);
    expect(row.resource).toMatchObject({
      name: [{ family: 'Renamed' }],
      meta: { versionId: '2', lastUpdated: '2026-01-03T00:00:00.000Z' },
    });
    expect(await store.read(clinicId, 'Patient', 'p1')).toEqual(row.resource);
  });

  it('leaves one row for 20 concurrent upserts of the same resource, at version 1', async () => {
    const clinicId = newClinic();
    const store = embeddedFhirStore(db);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => store.upsertMany(clinicId, [patient('same'), observation('o-same', 'same')])),
    );
    expect(results.reduce((n, r) => n + r.byType.Patient!.created, 0)).toBe(1);
    const rows = await db.fhirResource.findMany({ where: { clinicId } });
    expect(rows.map((r) => [r.resourceType, r.resourceId, r.versionId]).sort()).toEqual([
      ['Observation', 'o-same', 1],
      ['Patient', 'same', 1],
    ]);
  });

  it('counts concurrent different contents as one version each, never a duplicate row', async () => {
    const clinicId = newClinic();
    const store = embeddedFhirStore(db);
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.upsertMany(clinicId, [patient('p', `Family${i}`)])));
    const rows = await db.fhirResource.findMany({ where: { clinicId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.versionId).toBe(10);
    expect((rows[0]!.resource as FhirResource).meta?.versionId).toBe('10');
  });

  it('writes nothing when a later statement of the same pull fails', async () => {
    const clinicId = newClinic();
    // A real failure inside the transaction: a trigger refuses the 250th resource, in the third statement.
    await db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION refuse_boom() RETURNS trigger AS $$ BEGIN
      IF NEW."resourceId" = 'boom' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(
      `CREATE TRIGGER refuse_boom BEFORE INSERT ON "FhirResource" FOR EACH ROW EXECUTE FUNCTION refuse_boom()`,
    );
    try {
      const store = embeddedFhirStore(db, { chunkSize: 100 });
      const resources = Array.from({ length: 300 }, (_, i) =>
        patient(i === 249 ? 'boom' : `p${String(i).padStart(3, '0')}`),
      );
      const error = await store.upsertMany(clinicId, resources).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: 'DEPENDENCY_UNAVAILABLE',
        message: 'The FHIR store is unavailable; nothing was saved',
      });
      expect(await db.fhirResource.count({ where: { clinicId } })).toBe(0);
    } finally {
      await db.$executeRawUnsafe('DROP TRIGGER refuse_boom ON "FhirResource"');
    }
  });

  it('takes the last copy when a pull repeats a resource', async () => {
    const clinicId = newClinic();
    const result = await embeddedFhirStore(db).upsertMany(clinicId, [patient('p1', 'First'), patient('p1', 'Second')]);
    expect(result.byType.Patient).toEqual({ created: 1, updated: 0, unchanged: 0 });
    expect(await embeddedFhirStore(db).read(clinicId, 'Patient', 'p1')).toMatchObject({ name: [{ family: 'Second' }] });
  });
});

describe('embeddedFhirStore read and search', () => {
  it("never reads or finds another clinic's resource", async () => {
    const mine = newClinic();
    const theirs = newClinic();
    const store = embeddedFhirStore(db);
    await store.upsertMany(theirs, [patient('p1')]);
    expect(await store.read(mine, 'Patient', 'p1')).toBeNull();
    expect(await store.search(mine, { resourceType: 'Patient', count: 10 })).toEqual({
      resources: [],
      nextCursor: null,
      total: 0,
    });
  });

  it('pages by keyset in lastUpdated then id order, without repeats or gaps', async () => {
    const clinicId = newClinic();
    let tick = Date.parse('2026-03-01T00:00:00Z');
    const store = embeddedFhirStore(db, { clock: () => new Date(tick) });
    for (const batch of [
      ['c', 'a'],
      ['e', 'b', 'd'],
    ]) {
      await store.upsertMany(
        clinicId,
        batch.map((id) => patient(id)),
      );
      tick += 60_000;
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await store.search(clinicId, { resourceType: 'Patient', count: 2, ...(cursor && { cursor }) });
      expect(page.total).toBe(5);
      seen.push(...page.resources.map((r) => r.id));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor);
    expect(seen).toEqual(['a', 'c', 'b', 'd', 'e']);
    expect(pages).toBe(3);
  });

  it('filters by _id, _lastUpdated bounds, patient and the Patient compartment', async () => {
    const clinicId = newClinic();
    let tick = Date.parse('2026-03-01T00:00:00Z');
    const store = embeddedFhirStore(db, { clock: () => new Date(tick) });
    await store.upsertMany(clinicId, [observation('o1', 'p1'), observation('o2', 'p2')]);
    tick += 3_600_000;
    await store.upsertMany(clinicId, [
      observation('o3', 'p1'),
      { resourceType: 'Observation', id: 'o4', status: 'final' },
    ]);
    const ids = async (query: Omit<Parameters<typeof store.search>[1], 'resourceType' | 'count'>) =>
      (await store.search(clinicId, { resourceType: 'Observation', count: 50, ...query })).resources.map((r) => r.id);
    expect(await ids({ ids: ['o2', 'o3', 'nope'] })).toEqual(['o2', 'o3']);
    expect(await ids({ patientId: 'p1' })).toEqual(['o1', 'o3']);
    expect(await ids({ inPatientCompartment: true })).toEqual(['o1', 'o2', 'o3']);
    expect(await ids({ lastUpdated: [{ prefix: 'ge', at: new Date('2026-03-01T00:30:00Z') }] })).toEqual(['o3', 'o4']);
    expect(await ids({ lastUpdated: [{ prefix: 'lt', at: new Date('2026-03-01T00:30:00Z') }] })).toEqual(['o1', 'o2']);
    expect(await store.search(clinicId, { resourceType: 'Observation', count: 0 })).toEqual({
      resources: [],
      nextCursor: null,
      total: 4,
    });
  });

  it('refuses a cursor it did not issue with VALIDATION_FAILED', async () => {
    const error = await embeddedFhirStore(db)
      .search(newClinic(), { resourceType: 'Patient', count: 5, cursor: 'not-a-cursor' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'VALIDATION_FAILED',
      options: { issues: [{ path: 'query._cursor', message: 'Not a cursor this server issued' }] },
    });
  });
});

describe('embeddedFhirStore.commitStaged (a pull staged by lib/emr/stage-resources.ts)', () => {
  const source = 'https://emr.example/fhir';
  async function stage(clinicId: string, syncRunId: string, resources: FhirResource[], at: Date) {
    const { openPullSink } = await import('@/lib/emr/stage-resources');
    const store = embeddedFhirStore(db, { clock: () => at });
    const sink = openPullSink(
      { db, clock: () => at, fhirStore: store },
      { clinicId, syncRunId, sourceBaseUrl: source },
    );
    for (const resource of resources) await sink.add(resource);
    return sink;
  }

  it('commits the newest staged copy of each resource with upsertMany semantics, then empties the staging', async () => {
    const clinicId = newClinic();
    const first = new Date('2026-02-03T04:05:06.789Z');
    const sink = await stage(
      clinicId,
      `run_${clinicId}_1`,
      [patient('p1'), observation('o1', 'p1'), patient('p1', 'Later')],
      first,
    );
    expect((await sink.commit()).byType).toEqual({
      Patient: { created: 1, updated: 0, unchanged: 0 },
      Observation: { created: 1, updated: 0, unchanged: 0 },
    });
    const rows = await db.fhirResource.findMany({ where: { clinicId }, orderBy: { resourceType: 'asc' } });
    expect(rows.map((r) => [r.resourceType, r.resourceId, r.patientRef, r.versionId])).toEqual([
      ['Observation', servedId(source, 'o1'), servedId(source, 'p1'), 1],
      ['Patient', servedId(source, 'p1'), servedId(source, 'p1'), 1],
    ]);
    const stored = rows[1]!.resource as { name: { family: string }[]; meta: Record<string, string> };
    expect(stored.name[0]!.family).toBe('Later');
    expect(stored.meta).toEqual({
      versionId: '1',
      lastUpdated: first.toISOString(),
      source: `${source}/Patient/p1/_history/7`,
    });
    expect(rows[1]!.lastUpdated.toISOString()).toBe(first.toISOString());
    expect(await db.fhirStagedResource.count({ where: { syncRunId: `run_${clinicId}_1` } })).toBe(0);

    // Again: the unchanged observation keeps version 1, the changed patient goes to 2.
    const second = new Date('2026-02-04T00:00:00.000Z');
    const again = await stage(
      clinicId,
      `run_${clinicId}_2`,
      [patient('p1', 'Changed'), observation('o1', 'p1')],
      second,
    );
    expect((await again.commit()).byType).toEqual({
      Patient: { created: 0, updated: 1, unchanged: 0 },
      Observation: { created: 0, updated: 0, unchanged: 1 },
    });
    const after = await db.fhirResource.findMany({ where: { clinicId }, orderBy: { resourceType: 'asc' } });
    expect(
      after.map((r) => [r.resourceType, r.versionId, (r.resource as { meta: { versionId: string } }).meta.versionId]),
    ).toEqual([
      ['Observation', 1, '1'],
      ['Patient', 2, '2'],
    ]);
  });

  it('lets two first pulls of one source and an upsert from it commit at once: each succeeds, one row a resource', async () => {
    // The first pull of a source inserts without the conflict rule; the source's lock makes the others wait for
    // it and take the conflict rule (without the lock, the second plain INSERT would fail on the unique key).
    const clinicId = newClinic();
    const at = new Date('2026-02-05T00:00:00.000Z');
    const resources = Array.from({ length: 300 }, (_, i) => patient(`p${i}`));
    const sinks = await Promise.all([1, 2].map((n) => stage(clinicId, `run_${clinicId}_${n}`, resources, at)));
    const store = embeddedFhirStore(db, { clock: () => at });
    const results = await Promise.all([
      ...sinks.map((sink) => sink.commit()),
      store.upsertMany(clinicId, [patient('p0', 'Renamed')], { sourceBaseUrl: source }),
    ]);
    const counts = results.map((result) => result.byType.Patient!);
    expect(counts.reduce((sum, c) => sum + c.created, 0)).toBe(300);
    expect(counts.reduce((sum, c) => sum + c.created + c.updated + c.unchanged, 0)).toBe(601);
    expect(await db.fhirResource.count({ where: { clinicId } })).toBe(300);
  });

  it('discards a staged pull without touching the store', async () => {
    const clinicId = newClinic();
    const sink = await stage(
      clinicId,
      `run_${clinicId}`,
      Array.from({ length: 1500 }, (_, i) => patient(`p${i}`)),
      new Date(),
    );
    await sink.discard();
    expect(await db.fhirStagedResource.count({ where: { syncRunId: `run_${clinicId}` } })).toBe(0);
    expect(await db.fhirResource.count({ where: { clinicId } })).toBe(0);
  });

  it('searches patient= through patientRef', async () => {
    const clinicId = newClinic();
    const store = embeddedFhirStore(db);
    await store.upsertMany(clinicId, [patient('p1'), observation('o1', 'p1'), observation('o2', 'p2')]);
    const page = await store.search(clinicId, { resourceType: 'Observation', patientId: 'p1', count: 10 });
    expect(page.resources.map((r) => r.id)).toEqual(['o1']);
    expect(
      (await db.fhirResource.findMany({ where: { clinicId }, orderBy: { resourceId: 'asc' } })).map(
        (r) => r.patientRef,
      ),
    ).toEqual(['p1', 'p2', 'p1']);
  });
});
