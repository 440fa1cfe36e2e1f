// Amounts are bounded where they enter (DECISIONS.md, Trust boundaries: "every sum the API reports stays a safe
// integer"), over real HTTP and PostgreSQL: each amount one cent over MAX_AMOUNT_CENTS is a 400 naming its
// path and writes nothing; at the bound it is accepted; the totals that can grow row by row (a claim's paid
// total, a clinic's rail postings of one day) stop at their caps, so GET /api/claims, the reconcile job and
// the variance list keep answering 2xx with the largest amounts the bounds allow.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_AMOUNT_CENTS, MAX_RAIL_DAY_CENTS } from '@/lib/money/cents';
import { runReconciliation } from '@/lib/reconciliation/reconcile-day';
import { signBody } from '@/lib/webhooks/verify-signature';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { stepUpHeader } from '../support/step-up-claim';
import { createTenant, createUser, type TestTenant } from '../support/factories';

const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
const TOO_LARGE = 'amountCents must be at most 100000000000 cents (1,000,000,000.00 USD)';

type Receiver = 'payment' | 'banking';
const SECRETS: Record<Receiver, string> = {
  payment: TEST_SECRETS.WEBHOOK_SECRET_PAYMENT,
  banking: TEST_SECRETS.WEBHOOK_SECRET_BANKING,
};

function send(
  app: TestApp,
  receiver: Receiver,
  type: string,
  data: Record<string, unknown>,
  clinicId = 'clinic_north',
) {
  const raw = JSON.stringify({ id: uid('evt'), type, createdAt: new Date().toISOString(), clinicId, data });
  return new HttpClient(app.url).request('POST', `/api/webhooks/${receiver}`, {
    body: raw,
    headers: {
      'content-type': 'application/json',
      'x-svc-delivery': uid('dlv'),
      'x-svc-signature': signBody(Buffer.from(raw), SECRETS[receiver]),
    },
  });
}

const railData = (amountCents: number, postedAt: string, direction = 'credit') => ({
  transactionId: uid('btx'),
  amountCents,
  direction,
  postedAt,
  railReference: 'WIRE-MAX',
});

async function submittedClaim(app: TestApp, totalChargeCents: bigint) {
  const id = uid('clm');
  await app.db.claim.create({
    data: {
      id,
      clinicId: 'clinic_north',
      patientId: 'pat_n_003',
      totalChargeCents,
      serviceDate: '2026-11-01',
      status: 'submitted',
      correlationId: 'test-setup',
    },
  });
  return id;
}

describe('amount bounds', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('sets the single-amount bound at $1bn', () => {
    expect(MAX_AMOUNT_CENTS).toBe(100_000_000_000);
  });

  describe('webhook amounts', () => {
    it.each([
      [
        'payment.succeeded',
        'payment',
        (amountCents: number) => ({ paymentId: uid('pay'), billId: 'bill_n_001', amountCents, currency: 'USD' }),
      ],
      [
        'payment.failed',
        'payment',
        (amountCents: number) => ({ paymentId: uid('pay'), billId: 'bill_n_001', amountCents, currency: 'USD' }),
      ],
      ['banking.transaction.posted', 'banking', (amountCents: number) => railData(amountCents, '2026-11-20T12:00:00Z')],
    ] as const)(
      'refuses a %s amount one cent over the bound with 400 and the path, recording nothing',
      async (type, receiver, data) => {
        const before = await app.db.webhookDelivery.count();
        const res = await send(app, receiver, type, data(MAX_AMOUNT_CENTS + 1));
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          code: 'VALIDATION_FAILED',
          message: `The ${type} event data is not valid`,
          correlationId: expect.any(String),
          issues: [{ path: 'body.data.amountCents', message: TOO_LARGE }],
        });
        expect(await app.db.webhookDelivery.count()).toBe(before);
        expect(await app.db.payment.count({ where: { amountCents: { gt: BigInt(MAX_AMOUNT_CENTS) } } })).toBe(0);
        expect(await app.db.railPosting.count({ where: { amountCents: { gt: BigInt(MAX_AMOUNT_CENTS) } } })).toBe(0);
      },
    );

    it("stops a claim's paid total at the bound: a payment past it is rejected, and GET /api/claims answers the total", async () => {
      const claimId = await submittedClaim(app, BigInt(MAX_AMOUNT_CENTS));
      const first = { paymentId: uid('pay'), claimId, amountCents: MAX_AMOUNT_CENTS, currency: 'USD' };
      expect((await send(app, 'payment', 'payment.succeeded', first)).body).toEqual({
        received: true,
        duplicate: false,
        outcome: 'applied',
      });
      const second = { ...first, paymentId: uid('pay') };
      expect((await send(app, 'payment', 'payment.succeeded', second)).body).toEqual({
        received: true,
        duplicate: false,
        outcome: 'rejected',
        reason: 'amount exceeds what the claim can record',
      });
      expect(
        (await send(app, 'payment', 'payment.succeeded', { ...first, paymentId: uid('pay'), amountCents: 1 })).body
          .outcome,
      ).toBe('rejected');
      expect(await app.db.claim.findUnique({ where: { id: claimId } })).toMatchObject({
        paidCents: BigInt(MAX_AMOUNT_CENTS),
        status: 'paid',
      });
      expect(await app.db.payment.count({ where: { claimId, status: 'succeeded' } })).toBe(1);

      const billing = await signIn(app, 'billing@northside.test');
      const list = await billing.get('/api/claims?patientId=pat_n_003');
      expect(list.status).toBe(200);
      expect(list.body.claims.find((c: { claimId: string }) => c.claimId === claimId)).toMatchObject({
        totalChargeCents: MAX_AMOUNT_CENTS,
        paidCents: MAX_AMOUNT_CENTS,
        status: 'paid',
      });
    });
  });

  describe('settlement advances', () => {
    let billing: HttpClient;
    beforeAll(async () => {
      billing = await signIn(app, 'billing@northside.test');
    });

    it('refuses an advance one cent over the bound with 400 and the path, creating nothing', async () => {
      const before = await app.db.settlementInstruction.count();
      const res = await billing.post('/api/settlement/instructions', {
        poolId: 'pool_n_001',
        advanceAmountCents: MAX_AMOUNT_CENTS + 1,
        feeBps: 0,
        reserveBps: 0,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'The request body is not valid',
        correlationId: expect.any(String),
        issues: [
          {
            path: 'body.advanceAmountCents',
            message: 'advanceAmountCents must be at most 100000000000 cents (1,000,000,000.00 USD)',
          },
        ],
      });
      expect(await app.db.settlementInstruction.count()).toBe(before);
    });

    it('accepts an advance at the bound and shows its waterfall', async () => {
      const res = await billing.post('/api/settlement/instructions', {
        poolId: 'pool_n_001',
        advanceAmountCents: MAX_AMOUNT_CENTS,
        feeBps: 250,
        reserveBps: 1000,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        advanceAmountCents: MAX_AMOUNT_CENTS,
        waterfall: {
          poolCents: MAX_AMOUNT_CENTS,
          feeCents: 2_500_000_000,
          reserveCents: 10_000_000_000,
          residualCents: 87_500_000_000,
        },
      });
    });
  });

  describe('reconciliation at the largest totals', () => {
    let tenant: TestTenant;
    const day = '2026-10-05';
    const cron = { authorization: `Bearer ${TEST_SECRETS.CRON_SECRET}` };
    beforeAll(async () => {
      tenant = await createTenant(app.db);
    });

    it("caps a clinic's rail postings of one day so the job and the variance list answer exact totals", async () => {
      // As if the day had all but filled: two postings at the bound short of its cap, and one cent. Every posting
      // here is inside both the UTC day the cap counts and the clinic's day (New York, EDT: from 04:00Z) reconciled.
      const earlier = BigInt(MAX_RAIL_DAY_CENTS) - 2n * BigInt(MAX_AMOUNT_CENTS) + 1n;
      await app.db.railPosting.create({
        data: {
          id: uid('btx'),
          clinicId: tenant.clinicId,
          amountCents: earlier,
          direction: 'credit',
          postedAt: new Date(`${day}T05:00:00Z`),
          railReference: 'R',
        },
      });

      const fits = await send(
        app,
        'banking',
        'banking.transaction.posted',
        railData(MAX_AMOUNT_CENTS, `${day}T10:00:00Z`),
        tenant.clinicId,
      );
      expect(fits.body).toEqual({ received: true, duplicate: false, outcome: 'applied' });
      const total = earlier + BigInt(MAX_AMOUNT_CENTS);
      const overData = railData(MAX_AMOUNT_CENTS, `${day}T23:59:59.999Z`, 'debit');
      const over = await send(app, 'banking', 'banking.transaction.posted', overData, tenant.clinicId);
      expect(over.body).toEqual({
        received: true,
        duplicate: false,
        outcome: 'rejected',
        reason: "the day's rail postings exceed what reconciliation can total",
      });
      expect(await app.db.railPosting.count({ where: { id: overData.transactionId } })).toBe(0);
      // What still fits under the cap is accepted; the next day starts again from zero.
      const room = BigInt(MAX_RAIL_DAY_CENTS) - total;
      expect(
        (
          await send(
            app,
            'banking',
            'banking.transaction.posted',
            railData(Number(room), `${day}T12:00:00Z`),
            tenant.clinicId,
          )
        ).body.outcome,
      ).toBe('applied');
      expect(
        (
          await send(
            app,
            'banking',
            'banking.transaction.posted',
            railData(MAX_AMOUNT_CENTS, '2026-10-06T05:00:00Z'),
            tenant.clinicId,
          )
        ).body.outcome,
      ).toBe('applied');

      const res = await new HttpClient(app.url).request('POST', `/api/jobs/reconcile?day=${day}`, { headers: cron });
      expect(res.status).toBe(200);
      expect(res.body.variances.filter((v: { clinicId: string }) => v.clinicId === tenant.clinicId)).toEqual([
        { clinicId: tenant.clinicId, ledgerCents: 0, fboCents: 0, railCents: MAX_RAIL_DAY_CENTS },
      ]);

      const user = await createUser(app.db, tenant, { scopes: ['svcpay:read'] });
      const staff = await signIn(app, user.email, user.password);
      const variances = await staff.get('/api/reconciliation/variances');
      expect(variances.status).toBe(200);
      expect(variances.body.variances).toEqual([
        expect.objectContaining({ day, ledgerCents: 0, fboCents: 0, railCents: MAX_RAIL_DAY_CENTS }),
      ]);
    });

    it("totals a clinic's own day across two full UTC days exactly, so the nightly run answers", async () => {
      const other = await createTenant(app.db); // America/New_York
      // Its 2026-10-08 runs from 04:00Z that day to 04:00Z the next (EDT): the evening of one UTC day, the small
      // hours of the next. Each UTC day is filled to its cap, the last posting through the webhook.
      for (const postedAt of ['2026-10-08T20:00:00Z', '2026-10-09T02:00:00Z']) {
        await app.db.railPosting.create({
          data: {
            id: uid('btx'),
            clinicId: other.clinicId,
            amountCents: BigInt(MAX_RAIL_DAY_CENTS - MAX_AMOUNT_CENTS),
            direction: 'credit',
            postedAt: new Date(postedAt),
            railReference: 'R',
          },
        });
        const last = await send(
          app,
          'banking',
          'banking.transaction.posted',
          railData(MAX_AMOUNT_CENTS, postedAt),
          other.clinicId,
        );
        expect(last.body.outcome).toBe('applied');
        const past = await send(app, 'banking', 'banking.transaction.posted', railData(1, postedAt), other.clinicId);
        expect(past.body.outcome).toBe('rejected');
      }
      // The nightly schedule's run of that clinic and day (lib/schedules queues it with the clinic's id).
      const run = await runReconciliation(
        { db: app.db, clock: () => new Date('2026-10-09T06:00:00Z') },
        { day: '2026-10-08', correlationId: 'test-nightly', clinicId: other.clinicId },
      );
      expect(run.variances).toEqual([
        { clinicId: other.clinicId, ledgerCents: 0, fboCents: 0, railCents: 2 * MAX_RAIL_DAY_CENTS },
      ]);
    });

    it('answers a day of disbursements at the bound exactly', async () => {
      const other = await createTenant(app.db);
      const poolId = uid('pool');
      await app.db.settlementPool.create({
        data: { id: poolId, clinicId: other.clinicId, availableCents: 3n * BigInt(MAX_AMOUNT_CENTS), status: 'active' },
      });
      const user = await createUser(app.db, other, { scopes: ['svcpay:read', 'svcpay:write'] });
      const staff = await signIn(app, user.email, user.password);
      const stepUp = await stepUpHeader(app, user.email);
      for (let i = 0; i < 3; i += 1) {
        const created = await staff.post('/api/settlement/instructions', {
          poolId,
          advanceAmountCents: MAX_AMOUNT_CENTS,
          feeBps: 0,
          reserveBps: 0,
        });
        expect(
          (
            await staff.post(`/api/settlement/instructions/${created.body.instructionId}/sign`, undefined, {
              headers: stepUp,
            })
          ).status,
        ).toBe(200);
        expect(
          (
            await staff.post(
              `/api/settlement/console/${created.body.instructionId}/execute`,
              { railReference: `ACH-${i}` },
              { headers: stepUp },
            )
          ).status,
        ).toBe(200);
      }
      const today = new Date().toISOString().slice(0, 10);
      const res = await new HttpClient(app.url).request('POST', `/api/jobs/reconcile?day=${today}`, { headers: cron });
      expect(res.status).toBe(200);
      expect(res.body.variances.filter((v: { clinicId: string }) => v.clinicId === other.clinicId)).toEqual([
        { clinicId: other.clinicId, ledgerCents: -3 * MAX_AMOUNT_CENTS, fboCents: -3 * MAX_AMOUNT_CENTS, railCents: 0 },
      ]);
    });
  });
});
