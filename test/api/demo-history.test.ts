// The demo's 90 days of history (lib/demo/seed-demo-history.ts) seeded by the app's own start with DEMO_HISTORY=on,
// on a fresh PostgreSQL database: billing's dashboard panels have numbers, the lists have their denials, appeal,
// variance and signed instruction, the ruled demo records are exactly as without it, and a second start on the
// same database seeds nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicToday } from '@/lib/time/clinic-day';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';

const HISTORY_PATIENT = /^pat_[ns]_1\d\d$/;

describe('the demo with history', () => {
  let app: TestApp;
  let billing: HttpClient;

  beforeAll(async () => {
    app = await startApp({ env: { DEMO_HISTORY: 'on' } });
    billing = await signIn(app, 'billing@northside.test');
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('fills every dashboard panel of billing at Northside', async () => {
    expect(app.logs()).not.toContain('demo history seed failed');
    const aging = await billing.get('/api/dashboard/ar-aging');
    expect(aging.status, aging.text).toBe(200);
    expect(aging.body.totals.claims).toBeGreaterThan(0);
    expect(aging.body.totals.days0to30Cents).toBeGreaterThan(0);
    // Slow-payer claims stay open for weeks: the aging has more than its first bucket.
    expect(aging.body.totals.days31to60Cents).toBeGreaterThan(0);
    expect(aging.body.totals.days61to90Cents).toBeGreaterThan(0);

    const collections = await billing.get('/api/dashboard/collections');
    expect(collections.status, collections.text).toBe(200);
    const weeksPaid = collections.body.weeks.filter((w: { payerCents: number }) => w.payerCents > 0);
    expect(weeksPaid.length).toBeGreaterThan(5);

    const denials = await billing.get('/api/dashboard/denials');
    expect(denials.status, denials.text).toBe(200);
    expect(denials.body.deniedInFull).toBeGreaterThan(0);
    expect(denials.body.denialRate).toBeGreaterThan(0);
    expect(denials.body.denialRate).toBeLessThan(0.5);
    expect(denials.body.topReasons[0]).toMatchObject({ group: 'CO', reason: '50' });

    const clean = await billing.get('/api/dashboard/clean-claims');
    expect(clean.status, clean.text).toBe(200);
    expect(clean.body.cleanClaimRate).toBeGreaterThan(0.5);
    expect(clean.body.cleanClaimRate).toBeLessThan(1);

    const days = await billing.get('/api/dashboard/days-in-ar');
    expect(days.status, days.text).toBe(200);
    expect(days.body.daysInAr).toBeGreaterThan(0);
  });

  it('tells the story through the product: checks, 999/277CA, 835s, one appeal, deposits, one variance', async () => {
    const north = { clinicId: 'clinic_north' };
    const claims = await app.db.claim.findMany({ where: north, select: { status: true, patientId: true } });
    expect(claims.every((c) => HISTORY_PATIENT.test(c.patientId))).toBe(true);
    const statuses = new Set(claims.map((c) => c.status));
    for (const status of ['paid', 'denied', 'appealed', 'rejected', 'accepted']) expect(statuses).toContain(status);
    expect(claims.filter((c) => c.status === 'appealed')).toHaveLength(1);

    // Each claim went out as an 837P and came back with a 999 and a 277CA; each 835 through the ingest.
    const kinds = await app.db.claimTransmission.groupBy({ by: ['kind'], where: north, _count: true });
    const count = (kind: string) => kinds.find((k) => k.kind === kind)?._count ?? 0;
    expect(count('837P')).toBe(claims.length);
    expect(count('999')).toBe(claims.length);
    expect(count('835')).toBeGreaterThan(0);
    expect(await app.db.eligibilityCheck.count({ where: north })).toBe(claims.length);

    const variances = await billing.get('/api/reconciliation/variances');
    expect(variances.status, variances.text).toBe(200);
    expect(variances.body.variances).toEqual([expect.objectContaining({ kind: 'era_without_deposit' })]);
    expect(variances.body.waiting).toEqual([]);
    // The home screen counts what that screen lists: the demo's 835s that pay nothing expect no deposit.
    const home = await billing.get('/api/home');
    expect(home.body.money).toMatchObject({ erasWaitingForDeposit: 1, unmatchedDeposits: 0 });

    const instructions = await app.db.settlementInstruction.findMany({ select: { poolId: true, status: true } });
    expect(instructions).toEqual(
      expect.arrayContaining([
        { poolId: 'pool_n_101', status: 'DISBURSED' },
        { poolId: 'pool_s_101', status: 'DISBURSED' },
      ]),
    );
    // Paid out as a bank would: each clinic's prenote batch and its payout batch, both confirmed; the account
    // verified, and the NACHA file served.
    const batches = await billing.get('/api/settlement/batches');
    expect(batches.status, batches.text).toBe(200);
    const batchStatuses = (batches.body.batches as { status: string }[]).map((b) => b.status);
    expect(batchStatuses).toEqual(['confirmed', 'confirmed']);
    const accounts = await app.db.payoutAccount.findMany({ select: { clinicId: true, verifiedAt: true } });
    expect(accounts.map((a) => [a.clinicId, a.verifiedAt !== null]).sort()).toEqual([
      ['clinic_north', true],
      ['clinic_south', true],
    ]);
    const [first] = batches.body.batches as { batchId: string }[];
    const file = await billing.get(`/api/settlement/batches/${first!.batchId}/file`);
    expect(file.status).toBe(200);
    expect(file.text.split('\n')[0]).toMatch(/^101 /);
  });

  it("dates each claim's timeline and documents on the story's own days, not on the day it was seeded", async () => {
    const seededOn = new Date().toISOString().slice(0, 10);
    const paid = await app.db.claim.findFirstOrThrow({
      where: { clinicId: 'clinic_north', status: 'paid' },
      orderBy: { serviceDate: 'asc' },
    });
    const claim = await billing.get(`/api/claims/${paid.id}`);
    expect(claim.status, claim.text).toBe(200);
    type Dated = { kind: string; at: string };
    const timeline: Dated[] = claim.body.timeline;
    // Created and sent the morning after the visit, acknowledged then, paid two weeks later: weeks before today.
    expect(timeline.map((e) => e.kind)).toEqual(['created', 'sending', '999', '277CA', 'payment']);
    expect(timeline.slice(0, 4).map((e) => e.at)).toEqual(Array(4).fill(claim.body.submittedAt));
    expect(timeline.map((e) => e.at)).toEqual(timeline.map((e) => e.at).sort());
    expect(timeline.at(-1)!.at.slice(0, 10) < seededOn).toBe(true);
    const documents = await billing.get(`/api/claims/${paid.id}/transmissions`);
    expect(documents.status, documents.text).toBe(200);
    const sent = (documents.body.transmissions as Dated[]).filter((d) => d.kind !== '835');
    expect(sent.map((d) => [d.kind, d.at])).toEqual(
      ['837P', '999', '277CA'].map((kind) => [kind, claim.body.submittedAt]),
    );
  });

  it('leaves the ruled demo records exactly as ruled', async () => {
    for (const [prefix, clinicId, timeZone] of [
      ['n', 'clinic_north', 'America/New_York'],
      ['s', 'clinic_south', 'America/Los_Angeles'],
    ] as const) {
      const ruled = await app.db.patient.findMany({
        where: { clinicId, id: { startsWith: `pat_${prefix}_0` } },
        select: { id: true, coverageMemberId: true },
        orderBy: { id: 'asc' },
      });
      expect(ruled.map((p) => p.id)).toHaveLength(10);
      expect(ruled[0]!.coverageMemberId).toBe(`DEMO-ACTIVE-${prefix.toUpperCase()}001`);
      expect(await app.db.claim.count({ where: { patientId: { in: ruled.map((p) => p.id) } } })).toBe(0);
      expect(await app.db.eligibilityCheck.count({ where: { patientId: { in: ruled.map((p) => p.id) } } })).toBe(0);
      const pool = await app.db.settlementPool.findUniqueOrThrow({ where: { id: `pool_${prefix}_001` } });
      expect(pool.availableCents).toBe(1_000_000n);
      expect(await app.db.settlementInstruction.count({ where: { poolId: `pool_${prefix}_001` } })).toBe(0);
      const bill = await app.db.patientBill.findUniqueOrThrow({ where: { id: `bill_${prefix}_001` } });
      expect(bill.amountCents).toBe(12_500);
      // Today's appointments are the ruled ten, none of a history patient.
      const appointments = await app.db.appointment.findMany({
        where: { clinicId },
        select: { id: true, patientId: true },
      });
      const today = clinicToday(new Date(), timeZone).replaceAll('-', '');
      expect(appointments.filter((a) => a.id.endsWith(today))).toHaveLength(10);
      expect(appointments.some((a) => HISTORY_PATIENT.test(a.patientId))).toBe(false);
    }
  });

  it('seeds nothing on a second start of the same database', async () => {
    const counts = () =>
      Promise.all([
        app.db.patient.count(),
        app.db.claim.count(),
        app.db.remittance.count(),
        app.db.eligibilityCheck.count(),
        app.db.railPosting.count(),
        app.db.settlementInstruction.count(),
        app.db.reconciliationVariance.count(),
      ]);
    const before = await counts();
    // A second instance started on the same database runs the seed's claim on the history and finds it taken.
    const again = await startApp({ env: { DEMO_HISTORY: 'on' }, reuse: app.database });
    try {
      const client = await signIn(again, 'billing@northside.test');
      expect((await client.get('/api/dashboard/ar-aging')).status).toBe(200);
      expect(await counts()).toEqual(before);
    } finally {
      await again.stop();
    }
  });
});
