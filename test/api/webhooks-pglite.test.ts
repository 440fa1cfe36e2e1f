// The demo start runs on embedded PGlite, not PostgreSQL: the same raw SQL (CTEs, ON CONFLICT, casts, the
// deferred balance trigger) must work there. One pass over the money paths through HTTP only.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintStepUpClaim } from '@/lib/auth/step-up';
import { signBody } from '@/lib/webhooks/verify-signature';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';

const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;

describe('money paths on embedded PGlite', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ database: 'pglite' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  function deliver(receiver: string, type: string, data: Record<string, unknown>, deliveryId = uid('dlv')) {
    const raw = JSON.stringify({
      id: uid('evt'),
      type,
      createdAt: new Date().toISOString(),
      clinicId: 'clinic_north',
      data,
    });
    const secret = TEST_SECRETS[`WEBHOOK_SECRET_${receiver.toUpperCase()}` as keyof typeof TEST_SECRETS];
    return new HttpClient(app.url).request('POST', `/api/webhooks/${receiver}`, {
      body: raw,
      headers: {
        'content-type': 'application/json',
        'x-svc-delivery': deliveryId,
        'x-svc-signature': signBody(Buffer.from(raw), secret),
      },
    });
  }

  it('applies a payment once, posts it, and shows it on the bill', async () => {
    const deliveryId = uid('dlv');
    const data = { paymentId: uid('pay'), billId: 'bill_n_001', amountCents: 12_500, currency: 'USD' };
    const first = await deliver('payment', 'payment.succeeded', data, deliveryId);
    expect(first.body).toEqual({ received: true, duplicate: false, outcome: 'applied' });
    const concurrent = await Promise.all(
      Array.from({ length: 5 }, () => deliver('payment', 'payment.succeeded', data, deliveryId)),
    );
    expect(concurrent.map((r) => r.body)).toEqual(Array(5).fill({ received: true, duplicate: true }));
    const bill = await (await signIn(app, 'billing@northside.test')).get('/api/bills/bill_n_001');
    expect(bill.body).toEqual({
      billId: 'bill_n_001',
      patientId: 'pat_n_001',
      amountCents: 12_500,
      paidCents: 12_500,
      status: 'paid',
      ledgerTransactionIds: [expect.stringMatching(/^ltx_/)],
    });
    const overflow = await deliver('payment', 'payment.succeeded', {
      paymentId: uid('pay'),
      billId: 'bill_n_001',
      amountCents: 2_147_483_647,
      currency: 'USD',
    });
    expect(overflow.body).toEqual({
      received: true,
      duplicate: false,
      outcome: 'rejected',
      reason: 'amount exceeds what the bill can record',
    });
  });

  it('records the other event types', async () => {
    expect(
      (
        await deliver('fax', 'fax.received', {
          faxId: uid('fax'),
          from: '+15555550100',
          pages: 1,
          receivedAt: new Date().toISOString(),
          documentUrl: 'https://fax.example/x',
        })
      ).body.outcome,
    ).toBe('applied');
    expect(
      (await deliver('emr', 'emr.patient.updated', { patientId: 'pat_n_009', phone: '+1 555 0100' })).body.outcome,
    ).toBe('applied');
    const transferId = uid('trf');
    expect((await deliver('transfer', 'transfer.updated', { transferId, status: 'pending' })).body.outcome).toBe(
      'applied',
    );
    expect((await deliver('transfer', 'transfer.updated', { transferId, status: 'processing' })).body.outcome).toBe(
      'applied',
    );
    expect(
      (
        await deliver('banking', 'banking.transaction.posted', {
          transactionId: uid('btx'),
          amountCents: 90_000,
          direction: 'debit',
          postedAt: new Date().toISOString(),
          railReference: 'ACH-1',
        })
      ).body.outcome,
    ).toBe('applied');
  });

  it('treats a replayed signed body as a duplicate and an older patient update as stale, as on PostgreSQL', async () => {
    const post = (receiver: 'emr' | 'banking', raw: string) =>
      new HttpClient(app.url).request('POST', `/api/webhooks/${receiver}`, {
        body: raw,
        headers: {
          'content-type': 'application/json',
          'x-svc-delivery': uid('dlv'),
          'x-svc-signature': signBody(
            Buffer.from(raw),
            TEST_SECRETS[`WEBHOOK_SECRET_${receiver.toUpperCase() as 'EMR' | 'BANKING'}`],
          ),
        },
      });
    const update = (minutesAgo: number, phone: string) =>
      JSON.stringify({
        id: uid('evt'),
        type: 'emr.patient.updated',
        createdAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
        clinicId: 'clinic_north',
        data: { patientId: 'pat_n_008', phone },
      });
    const newer = update(1, '+1 555 0108');
    expect((await post('emr', newer)).body).toEqual({ received: true, duplicate: false, outcome: 'applied' });
    expect((await post('emr', newer)).body).toEqual({ received: true, duplicate: true });
    expect((await post('emr', update(5, '+1 555 0999'))).body).toEqual({ received: true, stale: true });
    const rail = JSON.stringify({
      id: uid('evt'),
      type: 'banking.transaction.posted',
      createdAt: new Date().toISOString(),
      clinicId: 'clinic_north',
      data: {
        transactionId: uid('btx'),
        amountCents: 100_000_000_000,
        direction: 'credit',
        postedAt: '2026-10-01T10:00:00Z',
        railReference: 'R',
      },
    });
    expect((await post('banking', rail)).body.outcome).toBe('applied');
  });

  it('creates, signs and executes an instruction once, and reconciles the day', async () => {
    const billing = await signIn(app, 'billing@northside.test');
    const { token } = await mintStepUpClaim(
      { userId: 'user_billing_north', orgId: 'org_demo', sessionVersion: 0 },
      'password',
      TEST_SECRETS.STEP_UP_SECRET,
      new Date(),
    );
    const headers = { 'x-svc-step-up': token };
    const created = await billing.post('/api/settlement/instructions', {
      poolId: 'pool_n_001',
      advanceAmountCents: 100_000,
      feeBps: 500,
      reserveBps: 500,
    });
    expect(created.status).toBe(201);
    expect(
      (await billing.post(`/api/settlement/instructions/${created.body.instructionId}/sign`, undefined, { headers }))
        .status,
    ).toBe(200);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        billing.post(
          `/api/settlement/console/${created.body.instructionId}/execute`,
          { railReference: 'ACH-1' },
          { headers },
        ),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(results.find((r) => r.status === 200)!.body).toMatchObject({
      status: 'DISBURSED',
      availableCents: 900_000,
      paidAmountCents: 100_000,
    });

    const today = new Date().toISOString().slice(0, 10);
    const run = await new HttpClient(app.url).request('POST', `/api/jobs/reconcile?day=${today}`, {
      headers: { authorization: `Bearer ${TEST_SECRETS.CRON_SECRET}` },
    });
    expect(run.status).toBe(200);
    // Ledger and FBO position both moved -90,000 (the residual); the rail reported a 90,000 debit.
    expect(run.body.variances).toEqual([]);
  });
});
