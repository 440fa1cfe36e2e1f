// The schedules' own work with a controllable clock, on a real PostgreSQL and a real pg-boss: pre-verification at
// 18:00 in New York and in Los Angeles queues each clinic of that zone for its own next calendar day, once however
// often the occurrence fires; the queued run checks exactly that day's appointments, recorded as source "schedule";
// reconciliation at 02:00 queues the zone's previous day.
import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '@/lib/db';
import { sandboxPayer } from '@/lib/eligibility/sandbox-payer';
import { PRE_VERIFICATION_QUEUE, preVerifyAppointments } from '@/lib/eligibility/pre-verify-appointments';
import { RECONCILE_QUEUE } from '@/lib/reconciliation/reconcile-day';
import { createPatient, createTenant, type TestTenant } from '@/test/support/factories';
import { jobsOf } from '@/test/support/jobs';
import { createTestDatabase, type TestDatabase } from '@/test/support/postgres';
import { sandboxClearinghouse } from '@/lib/clearinghouse/sandbox-clearinghouse';
import { SCHEDULES } from './schedules';

let database: TestDatabase;
let db: Db;
let boss: PgBoss;
let newYork: TestTenant;
let losAngeles: TestTenant;

const schedule = (name: string) => SCHEDULES.find((s) => s.name === name)!;

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDb({ kind: 'postgres', url: database.url });
  boss = new PgBoss({ connectionString: database.url, max: 2, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.createQueue(PRE_VERIFICATION_QUEUE);
  await boss.createQueue(RECONCILE_QUEUE, { policy: 'exclusive' });
  newYork = await createTenant(db, 'NewYork');
  losAngeles = await createTenant(db, 'LosAngeles');
  await db.clinic.update({ where: { id: losAngeles.clinicId }, data: { timeZone: 'America/Los_Angeles' } });
}, 60_000);

afterAll(async () => {
  await boss?.stop({ graceful: false, timeout: 1000 });
  await db?.$disconnect();
  await database?.drop();
});

describe('pre-verification at 18:00', () => {
  it("queues each clinic for its own zone's next calendar day, once per clinic and day", async () => {
    const preVerification = schedule('schedule.pre-verification');
    const at = (iso: string) => ({ db, boss, clock: () => new Date(iso) });
    // 18:00 in New York on 28 November is 23:00 UTC: the next day there is the 29th.
    const ny = await preVerification.run(at('2026-11-28T23:00:00Z'), {
      timeZone: 'America/New_York',
      now: new Date('2026-11-28T23:00:00Z'),
      correlationId: 'corr-ny',
    });
    // 18:00 in Los Angeles on 28 November is 02:00 UTC on the 29th: the next day there is still the 29th.
    const la = await preVerification.run(at('2026-11-29T02:00:00Z'), {
      timeZone: 'America/Los_Angeles',
      now: new Date('2026-11-29T02:00:00Z'),
      correlationId: 'corr-la',
    });
    expect(ny).toEqual({ date: '2026-11-29', clinics: 1, queued: 1 });
    expect(la).toEqual({ date: '2026-11-29', clinics: 1, queued: 1 });
    // The same occurrence again (another instance, an operator): nothing more is queued.
    const again = await preVerification.run(at('2026-11-29T02:00:30Z'), {
      timeZone: 'America/Los_Angeles',
      now: new Date('2026-11-29T02:00:30Z'),
      correlationId: 'corr-la-2',
    });
    expect(again).toEqual({ date: '2026-11-29', clinics: 1, queued: 0 });
    const jobs = await jobsOf(db, PRE_VERIFICATION_QUEUE);
    expect(jobs.map((j) => j.data).sort((a, b) => String(a.clinicId).localeCompare(String(b.clinicId)))).toEqual(
      [
        { clinicId: newYork.clinicId, date: '2026-11-29', correlationId: 'corr-ny' },
        { clinicId: losAngeles.clinicId, date: '2026-11-29', correlationId: 'corr-la' },
      ].sort((a, b) => a.clinicId.localeCompare(b.clinicId)),
    );
  });

  it("checks exactly that clinic day's appointments, each recorded with source schedule", async () => {
    const [tomorrow, late, dayAfter] = await Promise.all([
      createPatient(db, losAngeles),
      createPatient(db, losAngeles),
      createPatient(db, losAngeles),
    ]);
    await db.appointment.createMany({
      data: [
        // 08:00 and 23:30 in Los Angeles on the 29th (the second is already the 30th in UTC).
        {
          id: 'appt-la-1',
          clinicId: losAngeles.clinicId,
          patientId: tomorrow.id,
          start: new Date('2026-11-29T16:00:00Z'),
        },
        { id: 'appt-la-2', clinicId: losAngeles.clinicId, patientId: late.id, start: new Date('2026-11-30T07:30:00Z') },
        // 00:30 on the 30th in Los Angeles: not the day being pre-verified.
        {
          id: 'appt-la-3',
          clinicId: losAngeles.clinicId,
          patientId: dayAfter.id,
          start: new Date('2026-11-30T08:30:00Z'),
        },
      ],
    });
    const clock = () => new Date('2026-11-29T02:00:05Z');
    const result = await preVerifyAppointments(
      { db, clock, config: {}, payer: () => sandboxPayer(clock) },
      { clinicId: losAngeles.clinicId, date: '2026-11-29', correlationId: 'corr-run' },
    );
    expect(result.summary).toEqual({ total: 2, active: 2, inactive: 0, unknown: 0, skipped: 0 });
    const checks = await db.eligibilityCheck.findMany({
      where: { clinicId: losAngeles.clinicId },
      select: { patientId: true, dateOfService: true, source: true, userId: true },
      orderBy: { patientId: 'asc' },
    });
    expect(checks).toEqual(
      [tomorrow.id, late.id]
        .sort()
        .map((patientId) => ({ patientId, dateOfService: '2026-11-29', source: 'schedule', userId: 'schedule' })),
    );
  });
});

describe('reconciliation at 02:00', () => {
  it("queues the zone's previous day, one run per day at a time", async () => {
    const reconciliation = schedule('schedule.reconciliation');
    const deps = { db, boss, clock: () => new Date('2026-11-28T10:00:00Z') };
    // 02:00 in Los Angeles on 28 November is 10:00 UTC: the previous day there is the 27th.
    const input = { timeZone: 'America/Los_Angeles', now: new Date('2026-11-28T10:00:00Z'), correlationId: 'corr-r' };
    expect(await reconciliation.run(deps, input)).toEqual({ day: '2026-11-27', queued: true });
    expect(await reconciliation.run(deps, input)).toEqual({ day: '2026-11-27', queued: false }); // still queued
    expect((await jobsOf(db, RECONCILE_QUEUE, '2026-11-27')).map((j) => j.data)).toEqual([
      { day: '2026-11-27', correlationId: 'corr-r' },
    ]);
  });
});

describe('the registry', () => {
  it('holds the five ruled schedules, each in its own zone or the platform', () => {
    expect(SCHEDULES.map(({ name, cron, scope }) => ({ name, cron, scope }))).toEqual([
      { name: 'schedule.reconciliation', cron: '0 2 * * *', scope: 'clinic' },
      { name: 'schedule.pre-verification', cron: '0 18 * * *', scope: 'clinic' },
      { name: 'schedule.claim-status-follow-up', cron: '0 7 * * *', scope: 'clinic' },
      { name: 'schedule.era-retrieval', cron: '0 * * * *', scope: 'platform' },
      { name: 'schedule.claim-send-recovery', cron: '*/5 * * * *', scope: 'platform' },
    ]);
  });

  it('skips the clearinghouse work when none is configured, and ERA retrieval without a live one', async () => {
    const input = { timeZone: 'America/New_York', now: new Date('2026-11-28T12:00:00Z'), correlationId: 'corr-skip' };
    const none = { db, boss, clock: () => input.now, clearinghouse: () => null };
    for (const name of ['schedule.claim-status-follow-up', 'schedule.era-retrieval', 'schedule.claim-send-recovery'])
      expect(await schedule(name).run(none, input), name).toMatchObject({ skipped: expect.any(String) });
    const sandbox = {
      ...none,
      clearinghouse: () => sandboxClearinghouse({ clock: () => input.now, db }),
    };
    // The sandbox clearinghouse delivers its own 835s: retrieval has nothing to fetch from it.
    expect(await schedule('schedule.era-retrieval').run(sandbox, input)).toEqual({
      skipped: 'no live clearinghouse is configured',
    });
    // Follow-up runs against it (no claim of the zone is quiet here, so nothing is asked).
    expect(await schedule('schedule.claim-status-follow-up').run(sandbox, input)).toEqual({
      clinics: [{ clinicId: newYork.clinicId, asked: [], failed: [] }],
    });
  });
});
