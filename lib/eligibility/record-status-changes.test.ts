// eligibility.status_changed on PostgreSQL: one event when the newest check's status differs from the one before,
// none when only other fields changed, and none twice when the (retried) job records again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '@/lib/db';
import { createTestDatabase, type TestDatabase } from '@/test/support/postgres';
import type { RosterResult } from './check-roster';
import { recordStatusChanges } from './record-status-changes';

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

async function check(patientId: string, status: string, createdAt: string) {
  const row = await db.eligibilityCheck.create({
    data: {
      clinicId: 'clinic_x',
      patientId,
      userId: 'schedule',
      cacheKey: `${patientId}-${createdAt}`,
      payerId: '60054',
      serviceType: '30',
      dateOfService: '2026-11-29',
      status,
      eligible: status === 'active',
      mode: 'sandbox',
      cacheable: true,
      result: {},
      correlationId: 'test',
      createdAt: new Date(createdAt),
    },
  });
  return row.id;
}

const changed = (patientId: string): RosterResult => ({
  appointment: { patientId, start: null },
  skipped: false,
  changedSinceLastCheck: true,
});

describe('recordStatusChanges', () => {
  it('records a changed status once, and nothing for an unchanged one', async () => {
    await check('pat_a', 'active', '2026-11-27T18:00:00Z');
    const newest = await check('pat_a', 'inactive', '2026-11-28T18:00:00Z');
    await check('pat_b', 'active', '2026-11-27T18:00:00Z');
    await check('pat_b', 'active', '2026-11-28T18:00:00Z');
    const input = {
      clinicId: 'clinic_x',
      date: '2026-11-29',
      correlationId: 'corr-test-1',
      now: new Date('2026-11-28T18:05:00Z'),
      results: [changed('pat_a'), changed('pat_b')],
    };
    expect(await recordStatusChanges(db, input)).toBe(1);
    expect(await recordStatusChanges(db, input)).toBe(0);
    const events = await db.outboundEvent.findMany({ where: { clinicId: 'clinic_x' } });
    expect(events).toEqual([
      expect.objectContaining({
        id: `evt_elig_${newest}`,
        type: 'eligibility.status_changed',
        objectId: 'pat_a',
        data: { patientId: 'pat_a', checkId: newest, date: '2026-11-29', previousStatus: 'active', status: 'inactive' },
      }),
    ]);
  });
});
