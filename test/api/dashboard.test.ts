// The revenue dashboard's panels over real HTTP and PostgreSQL, against a ledger seeded by the product's own 835
// posting (uploads) plus a write-off inserted in the shape its module writes, with hand-computed numbers: aging at
// each bucket edge, a reversal and a write-off; the denial and clean-claim rates and the collections at the clinic
// time zone's day boundaries; days in A/R; CSV; both scopes; and no other clinic's numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicToday } from '@/lib/time/clinic-day';
import { describeCarc } from '@/lib/x12/carc';
import { addDays } from '@/lib/dashboard/dashboard-period';
import { signBody } from '@/lib/webhooks/verify-signature';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createTenant, createUser, uid, type TestTenant } from '../support/factories';
import { claimPayment, createClaim, remittanceOf, reversalOf, x12Of } from '../support/remittances';
import type { ClaimPayment } from '@/lib/x12/read-remittance';

const ZONE = 'America/Los_Angeles';
const error = (code: string, message: string) => ({ code, message, correlationId: expect.any(String) });

describe('revenue dashboard panels', () => {
  let app: TestApp;
  let aging: TestTenant;
  let rates: TestTenant;
  let agingClient: HttpClient;
  let ratesClient: HttpClient;
  let today: string;

  beforeAll(async () => {
    app = await startApp();
    aging = await createTenant(app.db, 'Aging');
    rates = await createTenant(app.db, 'Rates');
    for (const tenant of [aging, rates])
      await app.db.clinic.update({ where: { id: tenant.clinicId }, data: { timeZone: ZONE } });
    const scopes = ['claims:read', 'svcpay:read', 'svcpay:write'] as const;
    const a = await createUser(app.db, aging, { scopes: [...scopes] });
    const r = await createUser(app.db, rates, { scopes: [...scopes] });
    agingClient = await signIn(app, a.email, a.password);
    ratesClient = await signIn(app, r.email, r.password);
    today = clinicToday(new Date(), ZONE);
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** A claim of `chargeCents` with its date of service `age` days before today in the clinic's zone. */
  async function claimAged(tenant: TestTenant, age: number, chargeCents: number, set: Record<string, unknown> = {}) {
    const claim = await createClaim(app.db, tenant, { lines: [{ procedureCode: '99213', chargeCents }] });
    await app.db.claim.update({ where: { id: claim.id }, data: { serviceDate: addDays(today, -age), ...set } });
    return claim.id;
  }

  /** Posts one 835 through the upload (the real posting: charge, CLP, ledger, claim state). */
  async function post(client: HttpClient, claims: ClaimPayment[], paymentDate?: string) {
    const res = await client.post('/api/remittances', { x12: x12Of(remittanceOf(claims, { paymentDate })) });
    expect(res.status, res.text).toBe(200);
    return res.body.remittances[0].remittanceId as string;
  }

  const full = (claimId: string, cents: number) =>
    claimPayment(claimId, '1', [{ procedureCode: '99213', chargeCents: cents, adjustments: [] }]);

  describe('with the aging ledger', () => {
    beforeAll(async () => {
      await claimAged(aging, 0, 10_000, { status: 'submitted' });
      await claimAged(aging, 30, 20_000);
      await claimAged(aging, 31, 5_000);
      await claimAged(aging, 60, 7_000);
      await claimAged(aging, 61, 3_000);
      await claimAged(aging, 90, 1_000);
      // A write-off of part of a booked charge, as the write-off module posts it: 9,000 - 4,000 stays open.
      const writtenOff = await claimAged(aging, 91, 9_000);
      await app.db.ledgerTransaction.create({
        data: {
          clinicId: aging.clinicId,
          kind: 'claim.charge',
          reference: `claim:${writtenOff}`,
          correlationId: 'setup',
          entries: {
            create: [
              { account: 'assets:claims-receivable', amountCents: 9_000n },
              { account: 'revenue:patient-services', amountCents: -9_000n },
            ],
          },
        },
      });
      await app.db.ledgerTransaction.create({
        data: {
          clinicId: aging.clinicId,
          kind: 'claim.write_off',
          reference: `claim:${writtenOff}`,
          correlationId: 'setup',
          entries: {
            create: [
              { account: 'expenses:claim-write-offs', amountCents: 4_000n },
              { account: 'assets:claims-receivable', amountCents: -4_000n },
            ],
          },
        },
      });
      await claimAged(aging, 120, 2_000);
      // Paid in full, then the payer reverses the payment: owed again in full.
      const reversed = await claimAged(aging, 121, 25_000);
      await post(agingClient, [full(reversed, 25_000)]);
      await post(agingClient, [reversalOf(full(reversed, 25_000))]);
      // Paid in full: nothing open.
      const paid = await claimAged(aging, 150, 25_000);
      await post(agingClient, [full(paid, 25_000)]);
      // Not with the payer: a draft and a claim the front end rejected.
      await claimAged(aging, 5, 50_000, { status: 'draft' });
      await claimAged(aging, 5, 2_000, { status: 'rejected' });
      await claimAged(aging, 45, 4_000, { payerId: '87726', payerName: 'UnitedHealthcare' });
    });

    it('buckets each open balance by days since its date of service, edges included, by payer', async () => {
      const res = await agingClient.get('/api/dashboard/ar-aging');
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        asOf: today,
        payers: [
          {
            payerId: '60054',
            payerName: 'Aetna',
            claims: 9,
            days0to30Cents: 30_000,
            days31to60Cents: 12_000,
            days61to90Cents: 4_000,
            days91to120Cents: 7_000,
            over120Cents: 25_000,
            totalCents: 78_000,
          },
          {
            payerId: '87726',
            payerName: 'UnitedHealthcare',
            claims: 1,
            days0to30Cents: 0,
            days31to60Cents: 4_000,
            days61to90Cents: 0,
            days91to120Cents: 0,
            over120Cents: 0,
            totalCents: 4_000,
          },
        ],
        totals: {
          claims: 10,
          days0to30Cents: 30_000,
          days31to60Cents: 16_000,
          days61to90Cents: 4_000,
          days91to120Cents: 7_000,
          over120Cents: 25_000,
          totalCents: 82_000,
        },
      });
    });

    it('gives days in A/R as open A/R over the average daily charge of the last 90 days', async () => {
      const res = await agingClient.get('/api/dashboard/days-in-ar');
      expect(res.status, res.text).toBe(200);
      // Charges sent with a date of service in the 90 days up to today (ages 0..89; the claim aged 90 is out):
      // 10,000 + 20,000 + 5,000 + 7,000 + 3,000 + 2,000 (rejected, still billed) + 4,000 = 51,000;
      // 82,000 / (51,000 / 90) = 144.70...
      expect(res.body).toEqual({ asOf: today, openArCents: 82_000, charges90DaysCents: 51_000, daysInAr: 144.7 });
    });

    it('downloads the aging as a CSV file with the same numbers', async () => {
      const res = await agingClient.get('/api/dashboard/ar-aging?format=csv');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="ar-aging-${today}.csv"`);
      expect(res.text).toBe(
        [
          'payerId,payerName,claims,0-30,31-60,61-90,91-120,120+,totalCents',
          '60054,Aetna,9,30000,12000,4000,7000,25000,78000',
          '87726,UnitedHealthcare,1,0,4000,0,0,0,4000',
          ',Total,10,30000,16000,4000,7000,25000,82000',
          '',
        ].join('\r\n'),
      );
    });
  });

  describe('with first 835s and submissions around the clinic’s day boundaries', () => {
    // October 2026 in Los Angeles is PDT (UTC-7): the period's first instant is 2026-10-01T07:00Z and its last
    // day ends at 2026-11-01T07:00Z.
    const period = 'from=2026-10-01&to=2026-10-31';
    const inside = new Date('2026-10-15T12:00:00Z');
    const justBefore = new Date('2026-10-01T06:59:00Z'); // 2026-09-30 23:59 in the clinic
    const lastEvening = new Date('2026-11-01T06:30:00Z'); // 2026-10-31 23:30 in the clinic

    async function firstRemittance(claim: ClaimPayment, at: Date, paymentDate = '2026-10-14') {
      const id = await post(ratesClient, [claim], paymentDate);
      await app.db.remittance.update({ where: { id }, data: { createdAt: at } });
    }
    const one = (claimId: string, cents: number, adjustments: [string, string, number][]) =>
      claimPayment(claimId, adjustments.length && adjustments[0]![2] === cents ? '4' : '1', [
        { procedureCode: '99213', chargeCents: cents, adjustments },
      ]);

    beforeAll(async () => {
      const claim = async (cents: number) =>
        (await createClaim(app.db, rates, { lines: [{ procedureCode: '99213', chargeCents: cents }] })).id;
      const denied = await claim(10_000);
      await firstRemittance(one(denied, 10_000, [['CO', '50', 10_000]]), inside);
      const paid = await claim(5_000);
      await firstRemittance(one(paid, 5_000, []), inside);
      // Processed, nothing paid and nothing the patient owes: denied in full too.
      const processedToZero = await claim(6_000);
      await firstRemittance(
        claimPayment(processedToZero, '1', [
          { procedureCode: '99213', chargeCents: 6_000, adjustments: [['CO', '97', 6_000]] },
        ]),
        inside,
      );
      const partly = await claim(10_000);
      await firstRemittance(one(partly, 10_000, [['CO', '50', 4_000]]), inside);
      const before = await claim(7_000);
      await firstRemittance(one(before, 7_000, [['CO', '50', 7_000]]), justBefore, '2026-09-30');
      const evening = await claim(8_000);
      await firstRemittance(one(evening, 8_000, [['CO', '50', 8_000]]), lastEvening);
      // A patient's payment late on Sunday 2026-10-18 in the clinic (Monday in UTC): the week of 2026-10-12.
      await app.db.ledgerTransaction.create({
        data: {
          clinicId: rates.clinicId,
          kind: 'payment.succeeded',
          reference: `payment:${uid('pay')}`,
          correlationId: 'setup',
          createdAt: new Date('2026-10-19T06:30:00Z'),
          entries: {
            create: [
              { account: 'assets:cash', amountCents: 2_500n },
              { account: 'assets:patient-receivable', amountCents: -2_500n },
            ],
          },
        },
      });

      // Submissions: the first 837P's instant decides the period; clean = one send, never rejected, past sending.
      const submission = async (status: string, sends: Date[], events: [string, string][] = []) => {
        const id = await claim(1_000);
        await app.db.claim.update({ where: { id }, data: { status } });
        for (const at of sends)
          await app.db.claimTransmission.create({
            data: {
              clinicId: rates.clinicId,
              claimId: id,
              direction: 'out',
              kind: '837P',
              controlNumber: '1',
              x12: 'ISA',
              correlationId: 'setup',
              at,
            },
          });
        for (const [fromStatus, toStatus] of events)
          await app.db.claimEvent.create({
            data: { clinicId: rates.clinicId, claimId: id, kind: '277CA', fromStatus, toStatus, correlationId: 'x' },
          });
      };
      await submission('accepted', [inside], [['submitted', 'accepted']]);
      await submission('paid', [inside]);
      await submission('rejected', [inside], [['submitted', 'rejected']]);
      await submission('accepted', [inside, new Date('2026-10-16T12:00:00Z')], [['sending', 'draft']]);
      await submission('sending', [inside]);
      await submission('accepted', [justBefore]);
      await submission('accepted', [lastEvening]);
    });

    it('counts claims denied in full by their first 835 received in the period, with the reasons in words', async () => {
      const res = await ratesClient.get(`/api/dashboard/denials?${period}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        from: '2026-10-01',
        to: '2026-10-31',
        claimsWithFirstRemittance: 5,
        deniedInFull: 3,
        denialRate: 0.6,
        topReasons: [
          { group: 'CO', reason: '50', description: describeCarc('50'), claims: 2, amountCents: 18_000 },
          { group: 'CO', reason: '97', description: describeCarc('97'), claims: 1, amountCents: 6_000 },
        ],
      });
    });

    it('counts claims accepted on their first submission among those first submitted in the period', async () => {
      const res = await ratesClient.get(`/api/dashboard/clean-claims?${period}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        from: '2026-10-01',
        to: '2026-10-31',
        submitted: 6,
        cleanOnFirstPass: 3,
        cleanClaimRate: 0.5,
      });
    });

    it('sums collections per Monday week of the clinic: 835 payments by payment date, patients by posting day', async () => {
      // The bank's deposit of one paid 835, reassociated with it, moves that money on and is no second collection.
      const paid = await app.db.remittance.findFirstOrThrow({
        where: { clinicId: rates.clinicId, paymentCents: { gt: 0n }, paymentDate: '2026-10-14' },
      });
      const event = JSON.stringify({
        id: uid('evt'),
        type: 'banking.transaction.posted',
        createdAt: new Date().toISOString(),
        clinicId: rates.clinicId,
        data: {
          transactionId: uid('btx'),
          amountCents: Number(paid.paymentCents),
          direction: 'credit',
          postedAt: '2026-10-15T15:00:00Z',
          railReference: paid.traceNumber,
        },
      });
      const deposit = await new HttpClient(app.url).request('POST', '/api/webhooks/banking', {
        body: event,
        headers: {
          'content-type': 'application/json',
          'x-svc-delivery': uid('dlv'),
          'x-svc-signature': signBody(Buffer.from(event), TEST_SECRETS.WEBHOOK_SECRET_BANKING),
        },
      });
      expect(deposit.status, deposit.text).toBe(200);
      expect(await app.db.ledgerTransaction.count({ where: { reference: `remittance:${paid.id}` } })).toBe(1);

      const res = await ratesClient.get(`/api/dashboard/collections?${period}`);
      expect(res.status, res.text).toBe(200);
      const week = (weekStart: string, payerCents = 0, patientCents = 0) => ({
        weekStart,
        payerCents,
        patientCents,
        totalCents: payerCents + patientCents,
      });
      // Paid 5,000 and 6,000 on 2026-10-14; the denials paid nothing; the 2026-09-30 835 is outside.
      expect(res.body).toEqual({
        from: '2026-10-01',
        to: '2026-10-31',
        weeks: [
          week('2026-09-28'),
          week('2026-10-05'),
          week('2026-10-12', 11_000, 2_500),
          week('2026-10-19'),
          week('2026-10-26'),
        ],
        totalCents: 13_500,
      });
    });

    it('shows one clinic none of another’s numbers', async () => {
      const res = await ratesClient.get('/api/dashboard/ar-aging');
      expect(res.body.payers.map((p: { payerId: string }) => p.payerId)).toEqual(['60054']);
      // Rates' open A/R is only its own submissions' (1,000 each, those past sending and not rejected: 5).
      expect(res.body.totals).toMatchObject({ claims: 5, totalCents: 5_000 });
      const other = await agingClient.get(`/api/dashboard/denials?${period}`);
      expect(other.body).toMatchObject({ claimsWithFirstRemittance: 0, deniedInFull: 0, denialRate: null });
    });
  });

  it('needs both claims:read and svcpay:read, and a session', async () => {
    const claimsOnly = await createUser(app.db, aging, { scopes: ['claims:read'] });
    const client = await signIn(app, claimsOnly.email, claimsOnly.password);
    for (const path of ['ar-aging', 'collections', 'denials', 'clean-claims', 'days-in-ar']) {
      const res = await client.get(`/api/dashboard/${path}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(error('SCOPE_MISSING', 'This action needs the svcpay:read scope'));
      expect((await new HttpClient(app.url).get(`/api/dashboard/${path}`)).status).toBe(401);
    }
  });

  it.each([
    ['from=2026-10-32', 'from must be a real date'],
    ['from=2026-11-01&to=2026-10-01', 'from must not be after to'],
    ['format=xml', expect.any(String)],
  ])('refuses a bad period or format: %s', async (query, message) => {
    const res = await ratesClient.get(`/api/dashboard/denials?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(res.body)).toContain(typeof message === 'string' ? message : '');
  });
});
