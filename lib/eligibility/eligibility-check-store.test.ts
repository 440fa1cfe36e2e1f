// The verify store against a real PostgreSQL database: one statement logs the PHI access (only for a patient of
// the clinic) and reads the newest cacheable check of the key within 24 h; a refused patient logs nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '@/lib/db';
import { isAppError } from '@/lib/http/errors';
import { createPatient, createTenant, type TestTenant } from '@/test/support/factories';
import { createTestDatabase, type TestDatabase } from '@/test/support/postgres';
import { CACHE_TTL_MS, databaseCheckStore, loggedCheckStore, type CheckRow } from './eligibility-check-store';

let database: TestDatabase;
let db: Db;
let north: TestTenant;
let south: TestTenant;
beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDb({ kind: 'postgres', url: database.url });
  [north, south] = [await createTenant(db, 'North'), await createTenant(db, 'South')];
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

const now = new Date('2026-05-06T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
let seq = 0;
const access = () => ({ orgId: north.orgId, clinicId: north.clinicId, userId: 'user_clerk', purpose: 'eligibility.verify', correlationId: `corr-${seq++}` });

function check(patientId: string, cacheKey: string, createdAt: Date, overrides: Partial<CheckRow> = {}): CheckRow {
  return {
    clinicId: north.clinicId, patientId, userId: 'user_clerk', cacheKey, payerId: '60054', serviceType: '30', dateOfService: '2026-05-06',
    status: 'active', eligible: true, mode: 'sandbox', cacheable: true, result: { status: 'active', at: createdAt.toISOString() },
    correlationId: 'corr-check', createdAt, ...overrides,
  };
}

describe('loggedCheckStore', () => {
  it('logs the access and serves the newest cacheable check of the key, patient and mode from the last 24 h', async () => {
    const patient = await createPatient(db, north);
    const key = `key-${seq++}`;
    const rows = [
      check(patient.id, key, ago(CACHE_TTL_MS + 1)), // too old
      check(patient.id, key, ago(3_000)),
      check(patient.id, key, ago(2_000), { cacheable: false }), // transient rejection
      check(patient.id, key, ago(1_000), { mode: 'live' }),
      check(patient.id, `${key}-other`, ago(500)),
    ];
    for (const row of rows) await databaseCheckStore(db).record(row);
    const who = access();
    const store = await loggedCheckStore(db, who, { cacheKey: key, clinicId: north.clinicId, patientId: patient.id, mode: 'sandbox', now });

    const query = { cacheKey: key, clinicId: north.clinicId, patientId: patient.id, mode: 'sandbox', now };
    expect(await store.findCached(query)).toEqual({ createdAt: ago(3_000), result: { status: 'active', at: ago(3_000).toISOString() } });
    expect(await store.findCached({ ...query, cacheKey: `${key}-other` })).toBeNull(); // not the query it read
    const logged = await db.phiAccessLog.findMany({ where: { correlationId: who.correlationId } });
    expect(logged.map(({ patientId, purpose, createdAt }) => ({ patientId, purpose, createdAt }))).toEqual([
      { patientId: patient.id, purpose: 'eligibility.verify', createdAt: now },
    ]);
  });

  it('logs the access and answers a miss when nothing is cached', async () => {
    const patient = await createPatient(db, north);
    const who = access();
    const query = { cacheKey: `key-${seq++}`, clinicId: north.clinicId, patientId: patient.id, mode: 'sandbox', now };
    expect(await (await loggedCheckStore(db, who, query)).findCached(query)).toBeNull();
    expect(await db.phiAccessLog.count({ where: { correlationId: who.correlationId } })).toBe(1);
  });

  it.each([
    ['a patient of another clinic', async () => (await createPatient(db, south)).id],
    ['a patient that does not exist', async () => 'pat_nobody'],
  ])('refuses %s with OUT_OF_SCOPE, logging nothing', async (_name, patientId) => {
    const who = access();
    const query = { cacheKey: `key-${seq++}`, clinicId: north.clinicId, patientId: await patientId(), mode: 'sandbox', now };
    const error = await loggedCheckStore(db, who, query).then(() => undefined, (e: unknown) => e);
    expect(isAppError(error) && error.code).toBe('OUT_OF_SCOPE');
    expect(await db.phiAccessLog.count({ where: { correlationId: who.correlationId } })).toBe(0);
  });
});
