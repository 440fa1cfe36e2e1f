// Nightly reconciliation over real HTTP and PostgreSQL: ledger, FBO position and rail compared per clinic and
// clinic calendar day in cents; a variance per disagreement, idempotent per (clinic, day), resolved when a late
// rail posting arrives; the operator's run and a clinic's scheduled run reading the same hours for a day; the cron
// bearer (constant-time, 503 when unset) and the clinic-scoped variance list.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '@/lib/webhooks/verify-signature';
import { jobsOf } from '../support/jobs';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { stepUpHeader } from '../support/step-up-claim';
import { createTenant, createUser, type TestTenant } from '../support/factories';
import { runReconciliation } from '@/lib/reconciliation/reconcile-day';

const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
const error = (code: string, message: string) => ({ code, message, correlationId: expect.any(String) });

/** A disbursement on `day` written as the execute route writes it: instruction row and ledger posting. */
async function disbursement(app: TestApp, clinicId: string, at: Date, residualCents: bigint) {
  const id = uid('ins');
  await app.db.settlementInstruction.create({
    data: {
      id,
      clinicId,
      poolId: 'pool_x',
      status: 'DISBURSED',
      advanceAmountCents: residualCents,
      feeBps: 0,
      reserveBps: 0,
      poolCents: residualCents,
      feeCents: 0n,
      reserveCents: 0n,
      residualCents,
      paidAmountCents: residualCents,
      createdBy: 'x',
      disbursedAt: at,
      expiresAt: new Date(at.getTime() + 3600_000),
      correlationId: 'setup',
    },
  });
  await app.db.ledgerTransaction.create({
    data: {
      clinicId,
      kind: 'settlement.disbursement',
      reference: `settlement:${id}`,
      correlationId: 'setup',
      createdAt: at,
      entries: {
        create: [
          { account: 'assets:settlement-advances', amountCents: residualCents },
          { account: 'assets:fbo', amountCents: -residualCents },
        ],
      },
    },
  });
}

const railPosting = (app: TestApp, clinicId: string, at: Date, amountCents: bigint, direction: 'credit' | 'debit') =>
  app.db.railPosting.create({
    data: { id: uid('btx'), clinicId, amountCents, direction, postedAt: at, railReference: 'R' },
  });

describe('POST /api/jobs/reconcile', () => {
  let app: TestApp;
  let tenant: TestTenant;
  const cron = { authorization: `Bearer ${TEST_SECRETS.CRON_SECRET}` };
  beforeAll(async () => {
    app = await startApp();
    tenant = await createTenant(app.db);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const reconcile = (day?: string, headers: Record<string, string> = cron) =>
    new HttpClient(app.url).request('POST', `/api/jobs/reconcile${day ? `?day=${day}` : ''}`, { headers });

  it('finds an executed disbursement, its ledger posting and its rail debit in agreement: no variance', async () => {
    const billing = await signIn(app, 'billing@northside.test');
    const user = await app.db.user.findUniqueOrThrow({ where: { email: 'billing@northside.test' } });
    const stepUp = await stepUpHeader(app, user.email);
    const created = await billing.post('/api/settlement/instructions', {
      poolId: 'pool_n_001',
      advanceAmountCents: 10_000,
      feeBps: 300,
      reserveBps: 700,
    });
    await billing.post(`/api/settlement/instructions/${created.body.instructionId}/sign`, undefined, {
      headers: stepUp,
    });
    const executed = await billing.post(
      `/api/settlement/console/${created.body.instructionId}/execute`,
      { railReference: 'ACH-77' },
      { headers: stepUp },
    );
    expect(executed.status).toBe(200);
    const raw = JSON.stringify({
      id: uid('evt'),
      type: 'banking.transaction.posted',
      createdAt: new Date().toISOString(),
      clinicId: 'clinic_north',
      data: {
        transactionId: uid('btx'),
        amountCents: 9_000,
        direction: 'debit',
        postedAt: new Date().toISOString(),
        railReference: 'ACH-77',
      },
    });
    const posted = await new HttpClient(app.url).request('POST', '/api/webhooks/banking', {
      body: raw,
      headers: {
        'content-type': 'application/json',
        'x-svc-delivery': uid('dlv'),
        'x-svc-signature': signBody(Buffer.from(raw), TEST_SECRETS.WEBHOOK_SECRET_BANKING),
      },
    });
    expect(posted.body.outcome).toBe('applied');

    const today = new Date().toISOString().slice(0, 10);
    const res = await reconcile(today);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      day: today,
      clinicsChecked: expect.any(Number),
      variances: expect.any(Array),
      reassociation: expect.any(Array),
      correlationId: expect.any(String),
    });
    expect(res.body.variances.filter((v: { clinicId: string }) => v.clinicId === 'clinic_north')).toEqual([]);
    expect(await app.db.reconciliationVariance.count({ where: { clinicId: 'clinic_north', day: today } })).toBe(0);
  });

  it('records a variance when the rail has not paid yet, keeps one row per re-run, and resolves it when the rail posting arrives', async () => {
    // The clinic is in New York (EST in November): its 2026-11-10 runs from 05:00 UTC that day to 05:00 UTC the next.
    const day = '2026-11-10';
    await disbursement(app, tenant.clinicId, new Date(`${day}T09:00:00Z`), 1_000n);
    await railPosting(app, tenant.clinicId, new Date('2026-11-11T04:59:59.999Z'), 250n, 'credit');
    await railPosting(app, tenant.clinicId, new Date('2026-11-11T05:00:00Z'), 1_000n, 'debit'); // the next day's
    await railPosting(app, tenant.clinicId, new Date(`${day}T04:59:59.999Z`), 3_000n, 'debit'); // the day before's

    const first = await reconcile(day);
    expect(first.status).toBe(200);
    expect(first.body.variances.filter((v: { clinicId: string }) => v.clinicId === tenant.clinicId)).toEqual([
      { clinicId: tenant.clinicId, ledgerCents: -1_000, fboCents: -1_000, railCents: 250 },
    ]);
    const second = await reconcile(day);
    const rows = await app.db.reconciliationVariance.findMany({ where: { clinicId: tenant.clinicId, day } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      ledgerCents: -1_000n,
      fboCents: -1_000n,
      railCents: 250n,
      correlationId: second.body.correlationId,
    });

    await railPosting(app, tenant.clinicId, new Date(`${day}T20:00:00Z`), 1_250n, 'debit');
    const resolved = await reconcile(day);
    expect(resolved.body.variances.filter((v: { clinicId: string }) => v.clinicId === tenant.clinicId)).toEqual([]);
    expect(await app.db.reconciliationVariance.count({ where: { clinicId: tenant.clinicId, day } })).toBe(0);
  });

  it("reads each clinic's own calendar day, and the clinic's scheduled run finds what the operator's run found", async () => {
    const west = await createTenant(app.db, 'West');
    const east = await createTenant(app.db, 'East');
    await app.db.clinic.update({ where: { id: west.clinicId }, data: { timeZone: 'America/Los_Angeles' } });
    await app.db.clinic.update({ where: { id: east.clinicId }, data: { timeZone: 'Asia/Tokyo' } });
    const day = '2026-11-16';
    // 03:00 UTC on the 17th is the 16th's evening in Los Angeles; 20:00 UTC on the 15th is the 16th's morning in Tokyo.
    await railPosting(app, west.clinicId, new Date('2026-11-17T03:00:00Z'), 11n, 'credit');
    await railPosting(app, west.clinicId, new Date('2026-11-16T07:59:59.999Z'), 500n, 'credit'); // the 15th's
    await railPosting(app, east.clinicId, new Date('2026-11-15T20:00:00Z'), 13n, 'credit');
    await railPosting(app, east.clinicId, new Date('2026-11-16T15:00:00Z'), 500n, 'credit'); // the 17th's

    const operator = await reconcile(day);
    const ofTheseTwo = (variances: { clinicId: string }[]) =>
      variances.filter((v) => v.clinicId === west.clinicId || v.clinicId === east.clinicId);
    expect(ofTheseTwo(operator.body.variances)).toEqual(
      [
        { clinicId: east.clinicId, ledgerCents: 0, fboCents: 0, railCents: 13 },
        { clinicId: west.clinicId, ledgerCents: 0, fboCents: 0, railCents: 11 },
      ].sort((a, b) => a.clinicId.localeCompare(b.clinicId)),
    );

    // The 02:00 schedule's run of one clinic writes the same row with the same figures.
    const scheduled = await runReconciliation(
      { db: app.db, clock: () => new Date() },
      { day, clinicId: west.clinicId, correlationId: 'scheduled' },
    );
    expect(scheduled.variances).toEqual([{ clinicId: west.clinicId, ledgerCents: 0, fboCents: 0, railCents: 11 }]);
    const rows = await app.db.reconciliationVariance.findMany({
      where: { clinicId: { in: [west.clinicId, east.clinicId] }, kind: 'ledger_mismatch' },
      select: { clinicId: true, day: true, railCents: true },
      orderBy: { clinicId: 'asc' },
    });
    expect(rows).toEqual(
      [
        { clinicId: east.clinicId, day, railCents: 13n },
        { clinicId: west.clinicId, day, railCents: 11n },
      ].sort((a, b) => a.clinicId.localeCompare(b.clinicId)),
    );
  });

  it('catches a ledger posting that no settlement operation explains', async () => {
    const other = await createTenant(app.db);
    const day = '2026-11-12';
    await app.db.ledgerTransaction.create({
      data: {
        clinicId: other.clinicId,
        kind: 'manual',
        reference: 'console',
        correlationId: 'setup',
        createdAt: new Date(`${day}T10:00:00Z`),
        entries: {
          create: [
            { account: 'assets:fbo', amountCents: -77n },
            { account: 'assets:cash', amountCents: 77n },
          ],
        },
      },
    });
    const res = await reconcile(day);
    expect(res.body.variances.filter((v: { clinicId: string }) => v.clinicId === other.clinicId)).toEqual([
      { clinicId: other.clinicId, ledgerCents: -77, fboCents: 0, railCents: 0 },
    ]);
  });

  it('defaults to yesterday as UTC counts it, and refuses a day that has not started', async () => {
    const yesterday = new Date(Date.now() - 24 * 3600_000).toISOString().slice(0, 10);
    expect((await reconcile()).body.day).toBe(yesterday);
    const future = await reconcile('2999-01-01');
    expect(future.status).toBe(400);
    expect(future.body).toEqual({
      ...error('VALIDATION_FAILED', 'The day to reconcile has not started yet'),
      issues: [{ path: 'query.day', message: 'day must not be in the future' }],
    });
    const malformed = await reconcile('11/10/2026');
    expect(malformed.status).toBe(400);
    expect(malformed.body.issues).toEqual([{ path: 'query.day', message: 'day must be YYYY-MM-DD' }]);
  });

  it('answers overlapping calls for one day with one run: all 200, the same result, the work done once', async () => {
    const day = '2026-11-14';
    await railPosting(app, tenant.clinicId, new Date(`${day}T10:00:00Z`), 7n, 'credit');
    const runsBefore = (await jobsOf(app.db, 'reconcile', day)).length;
    // Holds the run at its first write until every call has arrived, so they overlap whatever the machine's speed.
    const blocker = new pg.Client({ connectionString: app.database!.url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE "ReconciliationVariance" IN EXCLUSIVE MODE');
    const calls = Array.from({ length: 6 }, () => reconcile(day));
    await new Promise((r) => setTimeout(r, 1500));
    await blocker.query('COMMIT');
    await blocker.end();
    const results = await Promise.all(calls);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.body.correlationId)).size).toBe(1);
    expect(results[0]!.body.variances.filter((v: { clinicId: string }) => v.clinicId === tenant.clinicId)).toEqual([
      { clinicId: tenant.clinicId, ledgerCents: 0, fboCents: 0, railCents: 7 },
    ]);
    const runs = await jobsOf(app.db, 'reconcile', day);
    expect(runs).toHaveLength(runsBefore + 1);
    expect(runs.at(-1)).toMatchObject({ state: 'completed', retryCount: 0 });
    // 2026-11-13's test below expects the clinic's only variance to be its own.
    await app.db.reconciliationVariance.deleteMany({ where: { clinicId: tenant.clinicId, day } });
  });

  it.each([
    ['no Authorization header', {}],
    ['a wrong bearer', { authorization: 'Bearer not-the-cron-secret' }],
    ['the secret under another scheme', { authorization: `Basic ${TEST_SECRETS.CRON_SECRET}` }],
    ['a session cookie instead of the bearer', { cookie: 'next-auth.session-token=x' }],
  ])('refuses %s with 401 and records nothing', async (_label, headers) => {
    const before = await app.db.reconciliationVariance.count();
    const res = await reconcile('2026-11-10', headers);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(error('UNAUTHENTICATED', 'A valid job token is required'));
    expect(await app.db.reconciliationVariance.count()).toBe(before);
  });

  it("lists the caller's clinic's variances only, to svcpay:read", async () => {
    const day = '2026-11-13';
    await railPosting(app, tenant.clinicId, new Date(`${day}T10:00:00Z`), 42n, 'credit');
    const run = await reconcile(day);
    const user = await createUser(app.db, tenant, { scopes: ['svcpay:read'] });
    const client = await signIn(app, user.email, user.password);
    const res = await client.get('/api/reconciliation/variances');
    expect(res.status).toBe(200);
    // 2026-11-10's day variance was resolved by the earlier test, so this one is the clinic's only one. (Its credits,
    // referenced "R", are deposits without an ERA: the ERA/deposit kinds are remittances' tests' business.)
    expect(res.body.variances.filter((v: { kind: string }) => v.kind === 'ledger_mismatch')).toEqual([
      {
        day,
        kind: 'ledger_mismatch',
        reference: '',
        ledgerCents: 0,
        fboCents: 0,
        railCents: 42,
        eraCents: null,
        depositCents: null,
        claimId: null,
        note: null,
        remittanceId: null,
        correlationId: run.body.correlationId,
        detectedAt: expect.any(String),
      },
    ]);

    const south = await signIn(app, 'admin@southside.test');
    const other = await south.get('/api/reconciliation/variances');
    expect(other.status).toBe(200);
    expect(other.body.variances.filter((v: { day: string }) => v.day === day)).toEqual([]);

    const noScope = await signIn(app, 'frontdesk@northside.test');
    expect((await noScope.get('/api/reconciliation/variances')).body).toEqual(
      error('SCOPE_MISSING', 'This action needs the svcpay:read scope'),
    );
  });
});

describe('POST /api/jobs/reconcile without CRON_SECRET', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ env: { CRON_SECRET: undefined } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('answers 503 and does no work', async () => {
    const res = await new HttpClient(app.url).request('POST', '/api/jobs/reconcile?day=2026-11-10', {
      headers: { authorization: 'Bearer anything' },
    });
    expect(res.status).toBe(503);
    expect(res.body).toEqual(error('DEPENDENCY_UNAVAILABLE', 'Scheduled jobs are not available'));
    expect(await app.db.reconciliationVariance.count()).toBe(0);
  });
});
