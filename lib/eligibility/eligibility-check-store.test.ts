// The verify store against a real PostgreSQL database: one statement logs the PHI access (only for a patient of
// the clinic), reads the newest cacheable check of the key within 24 h and the patient's coverage on file; a
// refused patient logs nothing.
import { describe, expect, it } from 'vitest';
import { isAppError } from '@/lib/errors';
import { createPatient } from '@/test/support/factories';
import { setUpTwoClinicDb } from '@/test/support/test-db';
import { CACHE_TTL_MS, databaseCheckStore, loggedCheckStore, type CheckRow } from './eligibility-check-store';

const t = setUpTwoClinicDb();

const now = new Date('2026-05-06T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
let seq = 0;
const access = () => ({
  orgId: t.north.orgId,
  clinicId: t.north.clinicId,
  userId: 'user_clerk',
  purpose: 'eligibility.verify',
  correlationId: `corr-${seq++}`,
});

function check(patientId: string, cacheKey: string, createdAt: Date, overrides: Partial<CheckRow> = {}): CheckRow {
  return {
    clinicId: t.north.clinicId,
    patientId,
    userId: 'user_clerk',
    cacheKey,
    payerId: '60054',
    memberId: 'W123',
    coverageOnFile: 'match',
    serviceType: '30',
    dateOfService: '2026-05-06',
    status: 'active',
    eligible: true,
    mode: 'sandbox',
    cacheable: true,
    result: { status: 'active', at: createdAt.toISOString() },
    correlationId: 'corr-check',
    source: 'staff',
    createdAt,
    ...overrides,
  };
}

describe('loggedCheckStore', () => {
  it('logs the access and serves the newest cacheable check of the key, patient and mode from the last 24 h', async () => {
    const patient = await createPatient(t.db, t.north);
    const key = `key-${seq++}`;
    const rows = [
      check(patient.id, key, ago(CACHE_TTL_MS + 1)), // too old
      check(patient.id, key, ago(3_000)),
      check(patient.id, key, ago(2_000), { cacheable: false }), // transient rejection
      check(patient.id, key, ago(1_000), { mode: 'live' }),
      check(patient.id, `${key}-other`, ago(500)),
    ];
    for (const row of rows) await databaseCheckStore(t.db).record(row);
    const who = access();
    const store = await loggedCheckStore(t.db, who, {
      cacheKey: key,
      clinicId: t.north.clinicId,
      patientId: patient.id,
      mode: 'sandbox',
      now,
    });

    const query = { cacheKey: key, clinicId: t.north.clinicId, patientId: patient.id, mode: 'sandbox', now };
    expect(await store.findCached(query)).toEqual({
      createdAt: ago(3_000),
      result: { status: 'active', at: ago(3_000).toISOString() },
    });
    expect(await store.findCached({ ...query, cacheKey: `${key}-other` })).toBeNull(); // not the query it read
    // The same statement brings the patient's coverage on file, which the answer is compared with.
    expect(store.coverage).toEqual({ memberId: patient.coverageMemberId, payerId: patient.coveragePayerId });
    const logged = await t.db.phiAccessLog.findMany({ where: { correlationId: who.correlationId } });
    expect(logged.map(({ patientId, purpose, createdAt }) => ({ patientId, purpose, createdAt }))).toEqual([
      { patientId: patient.id, purpose: 'eligibility.verify', createdAt: now },
    ]);
  });

  it('logs the access and answers a miss when nothing is cached', async () => {
    const patient = await createPatient(t.db, t.north);
    const who = access();
    const query = { cacheKey: `key-${seq++}`, clinicId: t.north.clinicId, patientId: patient.id, mode: 'sandbox', now };
    expect(await (await loggedCheckStore(t.db, who, query)).findCached(query)).toBeNull();
    expect(await t.db.phiAccessLog.count({ where: { correlationId: who.correlationId } })).toBe(1);
  });

  it.each([
    ['a patient of another clinic', async () => (await createPatient(t.db, t.south)).id],
    ['a patient that does not exist', async () => 'pat_nobody'],
  ])('refuses %s with OUT_OF_SCOPE, logging nothing', async (_name, patientId) => {
    const who = access();
    const query = {
      cacheKey: `key-${seq++}`,
      clinicId: t.north.clinicId,
      patientId: await patientId(),
      mode: 'sandbox',
      now,
    };
    const error = await loggedCheckStore(t.db, who, query).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAppError(error) && error.code).toBe('OUT_OF_SCOPE');
    expect(await t.db.phiAccessLog.count({ where: { correlationId: who.correlationId } })).toBe(0);
  });
});
