// The ERA receiver and reassociation over real HTTP and PostgreSQL: POST /api/webhooks/era (signed, clinic from
// the envelope, exactly once per envelope and per (payer id, TRN02), 422 with nothing recorded), the banking
// deposit matched to its 835 in either order, and the nightly variances for an ERA without its deposit, a deposit
// without its ERA after 3 business days, and amounts that disagree, listed by day.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '@/lib/webhooks/verify-signature';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createTenant, createUser, type TestTenant } from '../support/factories';
import { claimPayment, createClaim, remittanceOf, x12Of, type LineSpec } from '../support/remittances';

const ERA_SECRET = TEST_SECRETS.WEBHOOK_SECRET_ERA;
const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
const lines: LineSpec[] = [{ procedureCode: '99213', chargeCents: 15_000, adjustments: [['CO', '45', 5_000]] }];

describe('POST /api/webhooks/era and reassociation', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let staff: HttpClient;
  const cron = { authorization: `Bearer ${TEST_SECRETS.CRON_SECRET}` };

  beforeAll(async () => {
    app = await startApp({ env: { WEBHOOK_SECRET_ERA: `old-era-secret,${ERA_SECRET}` } });
    tenant = await createTenant(app.db, 'Era');
    const user = await createUser(app.db, tenant, { scopes: ['svcpay:read', 'svcpay:write', 'claims:read'] });
    staff = await signIn(app, user.email, user.password);
  });
  afterAll(async () => {
    await app?.stop();
  });

  function deliver(path: string, secret: string, envelope: object, delivery = uid('dlv')) {
    const raw = JSON.stringify(envelope);
    return new HttpClient(app.url).request('POST', path, {
      body: raw,
      headers: {
        'content-type': 'application/json',
        'x-svc-delivery': delivery,
        'x-svc-signature': signBody(Buffer.from(raw), secret),
      },
    });
  }
  const era = (clinicId: string, x12: string, id = uid('evt')) =>
    deliver('/api/webhooks/era', ERA_SECRET, {
      id,
      type: 'era.received',
      createdAt: new Date().toISOString(),
      clinicId,
      data: { x12 },
    });
  const deposit = (clinicId: string, railReference: string, amountCents: number, postedAt: string) =>
    deliver('/api/webhooks/banking', TEST_SECRETS.WEBHOOK_SECRET_BANKING, {
      id: uid('evt'),
      type: 'banking.transaction.posted',
      createdAt: new Date().toISOString(),
      clinicId,
      data: { transactionId: uid('btx'), amountCents, direction: 'credit', postedAt, railReference },
    });
  const reconcile = (day: string) =>
    new HttpClient(app.url).request('POST', `/api/jobs/reconcile?day=${day}`, { headers: cron });
  const depositPosting = (remittanceId: string) =>
    app.db.ledgerTransaction.findFirst({
      where: { kind: 'remittance.deposit', reference: `remittance:${remittanceId}` },
      include: { entries: true },
    });

  it('posts a signed 835 once: a re-delivery is a duplicate, the same 835 in a new envelope is recorded', async () => {
    const claim = await createClaim(app.db, tenant);
    const remittance = remittanceOf([claimPayment(claim.id, '1', lines)]);
    const id = uid('evt');
    const first = await era(tenant.clinicId, x12Of(remittance), id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true, duplicate: false, outcome: 'applied' });
    const posted = await app.db.remittance.findFirstOrThrow({ where: { traceNumber: remittance.traceNumber } });
    expect(posted).toMatchObject({ clinicId: tenant.clinicId, source: 'webhook', paymentCents: 10_000n });
    expect((await app.db.claim.findUniqueOrThrow({ where: { id: claim.id } })).status).toBe('paid');

    expect((await era(tenant.clinicId, x12Of(remittance), id)).body).toEqual({ received: true, duplicate: true });
    expect((await era(tenant.clinicId, x12Of(remittance))).body).toEqual({
      received: true,
      duplicate: false,
      outcome: 'recorded',
      reason: 'remittance already posted',
    });
    expect(await app.db.remittance.count({ where: { traceNumber: remittance.traceNumber } })).toBe(1);
    expect((await app.db.claim.findUniqueOrThrow({ where: { id: claim.id } })).paidCents).toBe(10_000n);
  });

  it('refuses an unbalanced 835 or another clinic’s claim with 422, recording nothing (a corrected delivery still posts)', async () => {
    const claim = await createClaim(app.db, tenant);
    const remittance = remittanceOf([claimPayment(claim.id, '1', lines)]);
    const id = uid('evt');
    const bad = await era(tenant.clinicId, x12Of(remittance).replace('BPR*I*100*', 'BPR*I*99*'), id);
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      code: 'UNPROCESSABLE',
      message: expect.stringMatching(/^The 835 cannot be posted: does not balance: transaction rule/),
      correlationId: expect.any(String),
    });
    expect(await app.db.webhookDelivery.count({ where: { envelopeId: id } })).toBe(0);

    const other = await createTenant(app.db, 'EraOther');
    const foreign = await era(other.clinicId, x12Of(remittance));
    expect(foreign.status).toBe(422);
    expect(foreign.body.message).toBe(
      `The 835 names no claim of this clinic (CLP01 "${claim.id}"); nothing was posted`,
    );
    expect(await app.db.remittance.count({ where: { traceNumber: remittance.traceNumber } })).toBe(0);

    expect((await era(tenant.clinicId, x12Of(remittance), id)).body.outcome).toBe('applied');
  });

  it('refuses a wrong signature (401) and an unknown event type is only recorded', async () => {
    const res = await deliver('/api/webhooks/era', 'not-the-secret', { id: uid('evt') });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('SIGNATURE_INVALID');
    const other = await deliver('/api/webhooks/era', ERA_SECRET, {
      id: uid('evt'),
      type: 'era.unknown',
      createdAt: new Date().toISOString(),
      clinicId: tenant.clinicId,
      data: {},
    });
    expect(other.body).toEqual({
      received: true,
      duplicate: false,
      outcome: 'recorded',
      reason: 'event type not handled by this receiver',
    });
  });

  it('reassociates the deposit with its 835 in either order, dated when the bank posted it', async () => {
    const [a, b] = [await createClaim(app.db, tenant), await createClaim(app.db, tenant)];
    const eraFirst = remittanceOf([claimPayment(a.id, '1', lines)]);
    await era(tenant.clinicId, x12Of(eraFirst));
    expect((await deposit(tenant.clinicId, eraFirst.traceNumber, 10_000, '2026-11-20T15:00:00Z')).body.outcome).toBe(
      'applied',
    );
    const first = await app.db.remittance.findFirstOrThrow({ where: { traceNumber: eraFirst.traceNumber } });
    const posting = await depositPosting(first.id);
    expect(posting?.createdAt.toISOString()).toBe('2026-11-20T15:00:00.000Z');
    expect(posting?.entries.map((e) => [e.account, e.amountCents]).sort()).toEqual([
      ['assets:era-clearing', -10_000n],
      ['assets:fbo', 10_000n],
    ]);
    expect((await staff.get(`/api/remittances/${first.id}`)).body.depositMatched).toBe(true);

    const depositFirst = remittanceOf([claimPayment(b.id, '1', lines)]);
    await deposit(tenant.clinicId, depositFirst.traceNumber, 10_000, '2026-11-20T16:00:00Z');
    await era(tenant.clinicId, x12Of(depositFirst));
    const second = await app.db.remittance.findFirstOrThrow({ where: { traceNumber: depositFirst.traceNumber } });
    expect(await depositPosting(second.id)).not.toBeNull();
    expect(second.ledgerTransactionIds).toContain((await depositPosting(second.id))!.id);

    // The day agrees: the rail credits are in the ledger's FBO figure and in the FBO position.
    const run = await reconcile('2026-11-20');
    expect(run.status).toBe(200);
    expect(run.body.variances.filter((v: { clinicId: string }) => v.clinicId === tenant.clinicId)).toEqual([]);
    expect(
      run.body.reassociation.filter(
        (v: { reference: string }) => v.reference === eraFirst.traceNumber || v.reference === depositFirst.traceNumber,
      ),
    ).toEqual([]);
  });

  it("raises amount_mismatch at once, deposit_without_era and era_without_deposit after 3 business days of the clinic's calendar", async () => {
    const own = await createTenant(app.db, 'Variances');
    const user = await createUser(app.db, own, { scopes: ['svcpay:read'] });
    const client = await signIn(app, user.email, user.password);
    const [a, b] = [await createClaim(app.db, own), await createClaim(app.db, own)];
    // 2026-11-16 is a Monday: three business days later is Thursday 2026-11-19.
    const short = remittanceOf([claimPayment(a.id, '1', lines)], { paymentDate: '2026-11-16' });
    await era(own.clinicId, x12Of(short));
    await deposit(own.clinicId, short.traceNumber, 9_999, '2026-11-16T12:00:00Z');
    const lonely = remittanceOf([claimPayment(b.id, '1', lines)], { paymentDate: '2026-11-16' });
    await era(own.clinicId, x12Of(lonely));
    await deposit(own.clinicId, 'EFT-NO-ERA', 4_200, '2026-11-16T13:00:00Z');
    // 22:00 on Monday in New York (the clinic's zone) is 03:00 on Tuesday in UTC: a deposit of the clinic's Monday.
    await deposit(own.clinicId, 'EFT-EVENING', 300, '2026-11-17T03:00:00Z');
    expect(
      await depositPosting(
        (await app.db.remittance.findFirstOrThrow({ where: { traceNumber: short.traceNumber } })).id,
      ),
    ).toBeNull();

    const mine = (body: { reassociation: { clinicId: string; kind: string }[] }) =>
      body.reassociation.filter((v) => v.clinicId === own.clinicId);
    const wednesday = await reconcile('2026-11-18');
    expect(mine(wednesday.body)).toEqual([
      {
        clinicId: own.clinicId,
        kind: 'amount_mismatch',
        reference: short.traceNumber,
        day: '2026-11-16',
        eraCents: 10_000,
        depositCents: 9_999,
      },
    ]);
    const thursday = await reconcile('2026-11-19');
    expect(mine(thursday.body)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'amount_mismatch', reference: short.traceNumber }),
        {
          clinicId: own.clinicId,
          kind: 'deposit_without_era',
          reference: 'EFT-NO-ERA',
          day: '2026-11-16',
          eraCents: null,
          depositCents: 4_200,
        },
        {
          clinicId: own.clinicId,
          kind: 'deposit_without_era',
          reference: 'EFT-EVENING',
          day: '2026-11-16',
          eraCents: null,
          depositCents: 300,
        },
        {
          clinicId: own.clinicId,
          kind: 'era_without_deposit',
          reference: lonely.traceNumber,
          day: '2026-11-16',
          eraCents: 10_000,
          depositCents: null,
        },
      ]),
    );
    expect(mine(thursday.body)).toHaveLength(4);

    const listed = await client.get('/api/reconciliation/variances?day=2026-11-16');
    expect(listed.status).toBe(200);
    expect(listed.body.variances.map((v: { kind: string; reference: string }) => [v.kind, v.reference]).sort()).toEqual(
      [
        ['amount_mismatch', short.traceNumber],
        ['deposit_without_era', 'EFT-EVENING'],
        ['deposit_without_era', 'EFT-NO-ERA'],
        ['era_without_deposit', lonely.traceNumber],
      ].sort(),
    );
    expect(listed.body.variances.find((v: { kind: string }) => v.kind === 'amount_mismatch')).toEqual({
      day: '2026-11-16',
      kind: 'amount_mismatch',
      reference: short.traceNumber,
      ledgerCents: 0,
      fboCents: 0,
      railCents: 0,
      eraCents: 10_000,
      depositCents: 9_999,
      claimId: null,
      note: null,
      remittanceId: null,
      correlationId: thursday.body.correlationId,
      detectedAt: expect.any(String),
    });
    // The day-level ledger_mismatch keeps working beside them: the unmatched credits are on the rail only.
    await reconcile('2026-11-16');
    const all = await client.get('/api/reconciliation/variances');
    expect(all.body.variances.filter((v: { kind: string }) => v.kind === 'ledger_mismatch')).toEqual([
      expect.objectContaining({ day: '2026-11-16', railCents: 9_999 + 4_200 + 300, ledgerCents: 0, fboCents: 0 }),
    ]);

    // The ERA's deposit arrives: its variance goes at the next run.
    await deposit(own.clinicId, lonely.traceNumber, 10_000, '2026-11-19T09:00:00Z');
    const friday = await reconcile('2026-11-20');
    expect(
      mine(friday.body)
        .map((v: { kind: string }) => v.kind)
        .sort(),
    ).toEqual(['amount_mismatch', 'deposit_without_era', 'deposit_without_era']);
    expect(
      await app.db.reconciliationVariance.count({ where: { clinicId: own.clinicId, kind: 'era_without_deposit' } }),
    ).toBe(0);
  });
});

describe('POST /api/webhooks/era without WEBHOOK_SECRET_ERA', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ database: 'pglite', env: { WEBHOOK_SECRET_ERA: undefined } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('answers 501 NOT_CONFIGURED', async () => {
    const res = await new HttpClient(app.url).request('POST', '/api/webhooks/era', {
      body: '{}',
      headers: { 'content-type': 'application/json', 'x-svc-signature': 'x', 'x-svc-delivery': 'd1' },
    });
    expect(res.status).toBe(501);
    expect(res.body.code).toBe('NOT_CONFIGURED');
  });
});
