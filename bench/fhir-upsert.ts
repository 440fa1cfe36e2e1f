// npm run bench -- fhir-upsert [--postgres]: 10,000 FHIR resources upserted through the embedded FhirStore
// (hashing, meta, INSERT ... ON CONFLICT in one transaction) against a raw multi-row INSERT of the same rows,
// interleaved in one run on a fresh database (in-memory PGlite by default; --postgres uses the local test
// server through test/support/postgres.ts). Last line: {"name","ratio" = raw time / store time,"target":0.5,...}.
import { createHash, randomUUID } from 'node:crypto';
import { openDb, type Db } from '../lib/db';
import { embeddedFhirStore } from '../lib/fhir/embedded-fhir-store';
import { contentHash } from '../lib/fhir/content-hash';
import type { FhirResource } from '../lib/fhir/types';
import { median } from './support/median';

const ROWS = 10_000;
const ROUNDS = 5;
const RAW_ROWS_PER_STATEMENT = 1000; // 8 bind parameters a row: 8,000 per statement, well under 65,535

const usePostgres = process.argv.includes('--postgres');
let drop = async () => {};
let db: Db;
if (usePostgres) {
  const { createTestDatabase } = await import('../test/support/postgres');
  const database = await createTestDatabase();
  db = await openDb({ kind: 'postgres', url: database.url });
  drop = async () => {
    await db.$disconnect();
    await database.drop();
  };
} else {
  db = await openDb({ kind: 'pglite', dataDir: 'memory://' });
}

function syntheticResources(count: number): FhirResource[] {
  const types = ['Patient', 'Encounter', 'Observation', 'Condition', 'MedicationRequest', 'AllergyIntolerance'];
  return Array.from({ length: count }, (_, i) => {
    const resourceType = types[i % types.length]!;
    const id = `${resourceType.toLowerCase()}-${i}`;
    return {
      resourceType,
      id,
      meta: { versionId: '1', lastUpdated: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString() },
      status: 'final',
      subject: { reference: `Patient/patient-${(i % 500) * 6}` },
      code: {
        coding: [
          { system: 'http://loinc.org', code: `${1000 + (i % 97)}-${i % 10}`, display: 'Synthetic measurement' },
        ],
        text: 'Synthetic measurement',
      },
      valueQuantity: { value: (i % 200) / 2, unit: 'mg/dL', system: 'http://unitsofmeasure.org', code: 'mg/dL' },
      effectiveDateTime: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString(),
      note: [{ text: createHash('sha256').update(String(i)).digest('hex') }],
    };
  });
}

const resources = syntheticResources(ROWS);
const store = embeddedFhirStore(db);

async function viaStore(clinicId: string): Promise<number> {
  const start = process.hrtime.bigint();
  await store.upsertMany(clinicId, resources);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function viaRawInsert(clinicId: string): Promise<number> {
  // The same rows the store writes, prepared before the clock starts: the baseline is the database work alone.
  const now = new Date().toISOString();
  const rows = resources.map(
    (r) =>
      [
        `fr_${randomUUID()}`,
        clinicId,
        r.resourceType,
        r.id,
        1,
        now,
        contentHash(r),
        JSON.stringify({ ...r, meta: { versionId: '1', lastUpdated: now } }),
      ] as const,
  );
  const start = process.hrtime.bigint();
  const statements = [];
  for (let offset = 0; offset < rows.length; offset += RAW_ROWS_PER_STATEMENT) {
    const chunk = rows.slice(offset, offset + RAW_ROWS_PER_STATEMENT);
    const values = chunk.map(
      (_, i) =>
        `($${i * 8 + 1}, $${i * 8 + 2}, $${i * 8 + 3}, $${i * 8 + 4}, $${i * 8 + 5}::int, $${i * 8 + 6}::timestamp(3), $${i * 8 + 7}, $${i * 8 + 8}::jsonb)`,
    );
    statements.push(
      db.$executeRawUnsafe(
        `INSERT INTO "FhirResource" ("id", "clinicId", "resourceType", "resourceId", "versionId", "lastUpdated", "contentHash", "resource") VALUES ${values.join(', ')}`,
        ...chunk.flat(),
      ),
    );
  }
  await db.$transaction(statements);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

// Warm-up (JIT, plans, table growth), then interleave so both see the same machine load. Each round writes a
// fresh clinic, so every store upsert is the insert path, like the raw baseline.
await viaStore(`bench_warm_store`);
await viaRawInsert(`bench_warm_raw`);
const storeMs: number[] = [];
const rawMs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  storeMs.push(await viaStore(`bench_store_${round}`));
  rawMs.push(await viaRawInsert(`bench_raw_${round}`));
}
// For the record: re-upserting unchanged resources (every row hits ON CONFLICT and stays at version 1).
const unchangedStart = process.hrtime.bigint();
const again = await store.upsertMany('bench_store_0', resources);
const unchangedMs = Number(process.hrtime.bigint() - unchangedStart) / 1e6;
const unchanged = Object.values(again.byType).reduce((sum, c) => sum + c.unchanged, 0);

const rows = await db.fhirResource.count();
await drop();
console.error(
  `store ms: ${storeMs.map((v) => v.toFixed(0)).join(' ')}; raw ms: ${rawMs.map((v) => v.toFixed(0)).join(' ')}; rows in table: ${rows}`,
);
console.log(
  JSON.stringify({
    name: 'fhir-upsert',
    ratio: Number((median(rawMs) / median(storeMs)).toFixed(3)),
    target: 0.5,
    rows: ROWS,
    database: usePostgres ? 'postgres' : 'pglite',
    storeMs: Number(median(storeMs).toFixed(1)),
    rawInsertMs: Number(median(rawMs).toFixed(1)),
    unchangedReupsertMs: Number(unchangedMs.toFixed(1)),
    unchangedRows: unchanged,
  }),
);
