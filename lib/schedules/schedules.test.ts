// The schedules' own work with a controllable clock, on a real PostgreSQL and a real pg-boss: pre-verification at
// 18:00 in New York and in Los Angeles queues each clinic of that zone for its own next calendar day, once however
// often the occurrence fires; the queued run checks exactly that day's appointments, recorded as source "schedule";
// reconciliation at 02:00 queues the zone's previous day.
import { randomUUID } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import { startTestBoss } from '@/test/support/test-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '@/lib/db';
import { sandboxPayer } from '@/lib/eligibility/sandbox-payer';
import { PRE_VERIFICATION_QUEUE, preVerifyAppointments } from '@/lib/eligibility/pre-verify-appointments';
import { RECONCILE_QUEUE, runReconciliation, type ReconcileJobData } from '@/lib/reconciliation/reconcile-day';
import { createPatient, createTenant, type TestTenant } from '@/test/support/factories';
import { jobsOf } from '@/test/support/jobs';
import { createTestDatabase, type TestDatabase } from '@/test/support/postgres';
import { sandboxClearinghouse } from '@/lib/clearinghouse/sandbox-clearinghouse';
import type { ClearinghouseTransport } from '@/lib/clearinghouse/clearinghouse-transport';
import { JobFailure } from '@/lib/background/job-handler';
import { createLogger } from '@/lib/log';
import { SCHEDULES } from './schedules';
import { scheduleHandler } from './schedule-handler';
import { syncSchedules } from './sync-schedules';

let database: TestDatabase;
let db: Db;
let boss: PgBoss;
let newYork: TestTenant;
let losAngeles: TestTenant;

const schedule = (name: string) => SCHEDULES.find((s) => s.name === name)!;

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDb({ kind: 'postgres', url: database.url });
  boss = await startTestBoss(database.url, {
    [PRE_VERIFICATION_QUEUE]: undefined,
    [RECONCILE_QUEUE]: { policy: 'exclusive' },
  });
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
  it('queues each clinic of the zone for its previous day, once per clinic and day at a time', async () => {
    const reconciliation = schedule('schedule.reconciliation');
    const deps = { db, boss, clock: () => new Date('2026-11-28T10:00:00Z') };
    // 02:00 in Los Angeles on 28 November is 10:00 UTC: the previous day there is the 27th.
    const input = { timeZone: 'America/Los_Angeles', now: new Date('2026-11-28T10:00:00Z'), correlationId: 'corr-r' };
    expect(await reconciliation.run(deps, input)).toEqual({ day: '2026-11-27', clinics: 1, queued: 1 });
    expect(await reconciliation.run(deps, input)).toEqual({ day: '2026-11-27', clinics: 1, queued: 0 }); // still queued
    expect((await jobsOf(db, RECONCILE_QUEUE, `${losAngeles.clinicId}:2026-11-27`)).map((j) => j.data)).toEqual([
      { clinicId: losAngeles.clinicId, day: '2026-11-27', correlationId: 'corr-r' },
    ]);
  });

  it("reconciles the clinic's own day, from its midnight to the next, and no other clinic", async () => {
    const sydney = await createTenant(db, 'Sydney');
    await db.clinic.update({ where: { id: sydney.clinicId }, data: { timeZone: 'Australia/Sydney' } });
    const rail = (iso: string, amountCents: bigint, direction: 'credit' | 'debit') =>
      db.railPosting.create({
        data: {
          id: `btx_${iso}_${direction}`,
          clinicId: sydney.clinicId,
          amountCents,
          direction,
          postedAt: new Date(iso),
          railReference: 'R',
        },
      });
    // Sydney is UTC+11 in November: its 27th runs from 13:00 UTC on the 26th to 13:00 UTC on the 27th.
    await rail('2026-11-26T12:59:59Z', 7n, 'credit'); // 23:59:59 on the 26th there
    await rail('2026-11-26T20:00:00Z', 500n, 'credit'); // 07:00 on the 27th: in the UTC 26th, never reconciled before
    await rail('2026-11-27T12:59:59Z', 20n, 'debit'); // 23:59:59 on the 27th
    await rail('2026-11-27T13:00:00Z', 1_000n, 'credit'); // midnight starting the 28th
    // 02:00 in Sydney on the 28th is 15:00 UTC on the 27th.
    const now = new Date('2026-11-27T15:00:00Z');
    const run = await schedule('schedule.reconciliation').run(
      { db, boss, clock: () => now },
      { timeZone: 'Australia/Sydney', now, correlationId: 'corr-syd' },
    );
    expect(run).toEqual({ day: '2026-11-27', clinics: 1, queued: 1 });
    const [job] = await jobsOf(db, RECONCILE_QUEUE, `${sydney.clinicId}:2026-11-27`);
    const result = await runReconciliation({ db, clock: () => now }, job!.data as ReconcileJobData);
    expect(result).toMatchObject({
      day: '2026-11-27',
      clinicsChecked: 1,
      variances: [{ clinicId: sydney.clinicId, ledgerCents: 0, fboCents: 0, railCents: 480 }],
    });
    expect(
      await db.reconciliationVariance.findMany({
        where: { kind: 'ledger_mismatch' },
        select: { clinicId: true, day: true, railCents: true },
      }),
    ).toEqual([{ clinicId: sydney.clinicId, day: '2026-11-27', railCents: 480n }]);
  });
});

describe('an occurrence missed during an outage', () => {
  it('is kept with pg-boss catching up one missed occurrence of each schedule', async () => {
    for (const { name } of SCHEDULES) await boss.createQueue(name);
    await syncSchedules(boss, db, SCHEDULES);
    const kept = await boss.getSchedules();
    expect(kept.length).toBeGreaterThan(SCHEDULES.length);
    expect(kept.map((s) => [s.name, s.key, s.options?.missed])).toEqual(kept.map((s) => [s.name, s.key, 'once']));
  });

  // A job carries its zone and nothing else (pg-boss's catch-up job too): the handler works out which occurrence
  // it stands for, the latest at or before now, and its calendar day is that occurrence's.
  const work = (name: string, timeZone: string, iso: string) =>
    scheduleHandler({ db, boss, clock: () => new Date(iso) }, schedule(name)).run({
      id: 'job',
      data: { timeZone },
      retryCount: 0,
      signal: new AbortController().signal,
    });

  it.each([
    // 18:00 on the 28th in Los Angeles, caught up at 00:30 on the 29th: still the 29th's appointments.
    ['schedule.pre-verification', '2026-11-29T08:30:00Z', { date: '2026-11-29' }],
    // 02:00 on the 28th in Los Angeles, caught up at 01:00 on the 29th (23 hours late): still the 27th.
    ['schedule.reconciliation', '2026-11-29T09:00:00Z', { day: '2026-11-27' }],
    // On time, with this instance's clock 30 s behind the database's (whose clock the cron pass reads).
    ['schedule.reconciliation', '2026-11-28T09:59:30Z', { day: '2026-11-27' }],
    ['schedule.pre-verification', '2026-11-29T01:59:40Z', { date: '2026-11-29' }],
  ])('%s run at %s works for the occurrence it stands for', async (name, iso, expected) => {
    expect(await work(name, 'America/Los_Angeles', iso)).toMatchObject(expected);
  });
});

describe('claim status follow-up at 07:00', () => {
  it('follows up every clinic of the zone when one fails unexpectedly, then fails the run naming how many', async () => {
    const now = new Date('2026-11-28T06:00:00Z'); // 07:00 in Berlin
    const zone = 'Europe/Berlin';
    const [first, second] = [
      await createTenant(db, 'BerlinA', { clinicId: `clinic_berlin_a_${randomUUID().slice(0, 8)}` }),
      await createTenant(db, 'BerlinB', { clinicId: `clinic_berlin_b_${randomUUID().slice(0, 8)}` }),
    ];
    const quietClaim = async (tenant: TestTenant) => {
      const patient = await createPatient(db, tenant);
      const id = `clm_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
      await db.clinic.update({ where: { id: tenant.clinicId }, data: { timeZone: zone } });
      await db.claim.create({
        data: {
          id,
          clinicId: tenant.clinicId,
          patientId: patient.id,
          totalChargeCents: 12_500n,
          serviceDate: '2026-10-20',
          status: 'accepted',
          payerId: '60054',
          payerName: 'Aetna',
          memberId: patient.coverageMemberId,
          correlationId: 'setup',
          submittedAt: new Date('2026-10-21T12:00:00Z'), // 38 days before: quiet
        },
      });
      return id;
    };
    const [broken, fine] = [await quietClaim(first), await quietClaim(second)];
    // The first clinic's 276 meets a failure that is no AppError (a bug, a driver error); the second's is answered.
    const sandbox = sandboxClearinghouse({ clock: () => now, db });
    const clearinghouse: ClearinghouseTransport = {
      ...sandbox,
      requestStatus: (x12, context) =>
        x12.includes(broken) ? Promise.reject(new TypeError('fetch failed')) : sandbox.requestStatus(x12, context),
    };
    const lines: Array<Record<string, unknown>> = [];
    const log = createLogger('silent');
    log.error = ((entry: Record<string, unknown>) => void lines.push(entry)) as typeof log.error;

    const run = schedule('schedule.claim-status-follow-up').run(
      { db, boss, clock: () => now, log, clearinghouse: () => clearinghouse },
      { timeZone: zone, now, correlationId: 'corr-follow-up' },
    );
    await expect(run).rejects.toThrow(
      new JobFailure(
        'Claim status follow-up failed for 1 of 2 clinics of Europe/Berlin; the others were followed up (the server log names the clinics under corr-follow-up)',
      ),
    );
    // The second clinic was asked about all the same; the first keeps its claim to ask on the next run.
    const asked = await db.claimStatusFollowUp.findMany({ where: { claimId: { in: [broken, fine] } } });
    expect(asked.map((row) => row.claimId)).toEqual([fine]);
    expect(await db.claimTransmission.count({ where: { claimId: fine, kind: '277' } })).toBe(1);
    expect(lines).toContainEqual({ clinicIds: [first.clinicId], timeZone: zone, correlationId: 'corr-follow-up' });
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
