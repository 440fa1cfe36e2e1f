// Remittance money safety over real HTTP and PostgreSQL (DECISIONS "Money in", ruled 2026-11-28, and "Security
// findings of 2026-11-28"): an 835 never pays a claim that was not sent, on every way in (upload, ERA webhook, the
// sandbox's ingest); the unmatched CLP is kept with its amounts, shown on the remittance and counted as a variance;
// reconciliation says "waiting for the deposit" rather than "reconciled"; a negative BPR02 is 422; a control
// character in an 835 is 400 and nothing is stored; a reversal of what was never posted is kept unmatched; an
// interchange posts whole or not at all; a different 835 reusing a posted trace number is 422, never a duplicate.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HomeSummary } from '@/lib/home/read-home';
import { ingestRemittance } from '@/lib/remittances/ingest-remittance';
import { signBody } from '@/lib/webhooks/verify-signature';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createTenant, createUser, type TestTenant } from '../support/factories';
import {
  claimPayment,
  createClaim,
  interchangeOf,
  remittanceOf,
  reversalOf,
  x12Of,
  type LineSpec,
} from '../support/remittances';

const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
// Charge 150.00: CO-45 25.00, PR-1 25.00, paid 100.00.
const lines: LineSpec[] = [
  {
    procedureCode: '99213',
    chargeCents: 15_000,
    adjustments: [
      ['CO', '45', 2_500],
      ['PR', '1', 2_500],
    ],
  },
];

type Variance = { kind: string; reference: string; claimId: string | null; eraCents: number | null; note: string };

describe('remittance money safety', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let staff: HttpClient;

  beforeAll(async () => {
    app = await startApp();
    tenant = await createTenant(app.db, 'MoneySafety');
    const user = await createUser(app.db, tenant, { scopes: ['svcpay:read', 'svcpay:write', 'claims:read'] });
    staff = await signIn(app, user.email, user.password);
  });
  afterAll(async () => {
    await app?.stop();
  });

  function deliver(path: string, secret: string, envelope: object) {
    const raw = JSON.stringify(envelope);
    return new HttpClient(app.url).request('POST', path, {
      body: raw,
      headers: {
        'content-type': 'application/json',
        'x-svc-delivery': uid('dlv'),
        'x-svc-signature': signBody(Buffer.from(raw), secret),
      },
    });
  }
  const era = (x12: string, id = uid('evt')) =>
    deliver('/api/webhooks/era', TEST_SECRETS.WEBHOOK_SECRET_ERA, {
      id,
      type: 'era.received',
      createdAt: new Date().toISOString(),
      clinicId: tenant.clinicId,
      data: { x12 },
    });

  /** Everything a posting to this claim could write. */
  async function claimTrace(claimId: string) {
    const [claim, ledger, bills, events, transmissions] = await Promise.all([
      app.db.claim.findUniqueOrThrow({ where: { id: claimId }, include: { lines: true } }),
      app.db.ledgerTransaction.count({ where: { clinicId: tenant.clinicId, reference: `claim:${claimId}` } }),
      app.db.patientBill.count({ where: { claimId } }),
      app.db.claimEvent.count({ where: { claimId } }),
      app.db.claimTransmission.count({ where: { claimId } }),
    ]);
    return { claim, ledger, bills, events, transmissions };
  }

  /** The draft untouched, the sent claim paid, the remittance listing the unmatched CLP, the variance counted. */
  async function expectDraftUnpaid(input: {
    remittanceId: string;
    sentId: string;
    draftId: string;
    before: Awaited<ReturnType<typeof claimTrace>>;
    source: string;
  }) {
    const after = await claimTrace(input.draftId);
    expect(after).toEqual(input.before);
    expect(after.claim.status).toBe('draft');
    expect(after.claim.paidCents).toBe(0n);
    expect(after.bills).toBe(0);
    expect(after.ledger).toBe(0);
    expect((await app.db.claim.findUniqueOrThrow({ where: { id: input.sentId } })).status).toBe('paid');

    const detail = await staff.get(`/api/remittances/${input.remittanceId}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ source: input.source, claimCount: 2, unmatchedCount: 1 });
    // Only the sent claim's CLP reached the ledger.
    const postings = await app.db.ledgerTransaction.findMany({
      where: { id: { in: detail.body.ledgerTransactionIds } },
      select: { reference: true },
    });
    expect(postings.map((p) => p.reference).filter((r) => r.includes(input.draftId))).toEqual([]);
    expect(detail.body.claims).toEqual([
      expect.objectContaining({ claimId: input.sentId, posting: 'posted', unmatchedReason: null, paidCents: 10_000 }),
      expect.objectContaining({
        claimId: input.draftId,
        posting: 'unmatched',
        unmatchedReason: 'The claim was never sent to the payer (it is draft)',
        // The payer's claim id names no claim of the clinic: no patient, by id or by name.
        patientId: null,
        patientName: null,
        chargeCents: 15_000,
        paidCents: 10_000,
        patientResponsibilityCents: 2_500,
      }),
    ]);
    const list = await staff.get('/api/remittances');
    expect(list.body.remittances.find((r: { id: string }) => r.id === input.remittanceId)).toMatchObject({
      claimCount: 2,
      unmatchedCount: 1,
    });

    const variances = await staff.get('/api/reconciliation/variances');
    expect(variances.status).toBe(200);
    expect(
      variances.body.variances.filter((v: Variance) => v.kind === 'unmatched_claim' && v.claimId === input.draftId),
    ).toEqual([
      expect.objectContaining({
        kind: 'unmatched_claim',
        claimId: input.draftId,
        eraCents: 10_000,
        depositCents: null,
        note: 'The claim was never sent to the payer (it is draft)',
        remittanceId: input.remittanceId,
      }),
    ]);
  }

  it('upload: a CLP naming a draft is kept unmatched and posts nothing to the draft; the sent claim is paid', async () => {
    const sent = await createClaim(app.db, tenant);
    const draft = await createClaim(app.db, tenant, { status: 'draft' });
    const before = await claimTrace(draft.id);
    const res = await staff.post('/api/remittances', {
      x12: x12Of(remittanceOf([claimPayment(sent.id, '1', lines), claimPayment(draft.id, '1', lines)])),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.remittances[0]).toMatchObject({ duplicate: false, claimsPosted: 1, claimsUnmatched: 1 });
    await expectDraftUnpaid({
      remittanceId: res.body.remittances[0].remittanceId,
      sentId: sent.id,
      draftId: draft.id,
      before,
      source: 'upload',
    });
  });

  it('upload: an 835 whose only CLPs name a draft or an unknown claim is 422 and posts nothing', async () => {
    const draft = await createClaim(app.db, tenant, { status: 'draft' });
    const before = await claimTrace(draft.id);
    const remittances = await app.db.remittance.count({ where: { clinicId: tenant.clinicId } });
    const res = await staff.post('/api/remittances', {
      x12: x12Of(remittanceOf([claimPayment(draft.id, '1', lines), claimPayment('clm_nobody0000001', '1', lines)])),
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      code: 'UNPROCESSABLE',
      message: `The 835 names no claim of this clinic that was sent to the payer (CLP01 "${draft.id}", "clm_nobody0000001"); nothing was posted`,
      correlationId: expect.any(String),
    });
    expect(await claimTrace(draft.id)).toEqual(before);
    expect(await app.db.remittance.count({ where: { clinicId: tenant.clinicId } })).toBe(remittances);
  });

  it('ERA webhook: the same rule inside the delivery transaction', async () => {
    const sent = await createClaim(app.db, tenant);
    const draft = await createClaim(app.db, tenant, { status: 'draft' });
    const before = await claimTrace(draft.id);
    const remittance = remittanceOf([claimPayment(sent.id, '1', lines), claimPayment(draft.id, '1', lines)]);
    const res = await era(x12Of(remittance));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ received: true, duplicate: false, outcome: 'applied' });
    const posted = await app.db.remittance.findFirstOrThrow({
      where: { clinicId: tenant.clinicId, traceNumber: remittance.traceNumber },
    });
    await expectDraftUnpaid({ remittanceId: posted.id, sentId: sent.id, draftId: draft.id, before, source: 'webhook' });

    // Only drafts: 422, nothing recorded, not even the delivery.
    const id = uid('evt');
    const refused = await era(x12Of(remittanceOf([claimPayment(draft.id, '1', lines)])), id);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('UNPROCESSABLE');
    expect(await app.db.webhookDelivery.count({ where: { envelopeId: id } })).toBe(0);
    expect(await claimTrace(draft.id)).toEqual(before);
  });

  it("sandbox: the sandbox clearinghouse's ingest (source sandbox) obeys the same rule", async () => {
    // The sandbox job (lib/claims/sandbox-remittance.ts) answers only accepted claims and hands its 835 to
    // ingestRemittance with source "sandbox"; here that same call, against the app's database, names a draft too.
    const sent = await createClaim(app.db, tenant);
    const draft = await createClaim(app.db, tenant, { status: 'draft' });
    const before = await claimTrace(draft.id);
    const result = await ingestRemittance(
      { db: app.db, clock: () => new Date() },
      {
        clinicId: tenant.clinicId,
        x12: x12Of(remittanceOf([claimPayment(sent.id, '1', lines), claimPayment(draft.id, '1', lines)])),
        source: 'sandbox',
        correlationId: uid('corr'),
      },
    );
    expect(result.remittances[0]).toMatchObject({ claimsPosted: 1, claimsUnmatched: 1 });
    await expectDraftUnpaid({
      remittanceId: result.remittances[0]!.remittanceId,
      sentId: sent.id,
      draftId: draft.id,
      before,
      source: 'sandbox',
    });
  });

  it('reconciliation: an ERA without its deposit yet is "Waiting for the deposit", then a variance, then gone', async () => {
    const own = await createTenant(app.db, 'Waiting');
    const user = await createUser(app.db, own, { scopes: ['svcpay:read', 'svcpay:write', 'claims:read'] });
    const client = await signIn(app, user.email, user.password);
    const claim = await createClaim(app.db, own);
    // Paid on Monday 2026-11-16: a variance from Thursday 2026-11-19 (3 business days) if no deposit came.
    const remittance = remittanceOf([claimPayment(claim.id, '1', lines)], { paymentDate: '2026-11-16' });
    expect((await client.post('/api/remittances', { x12: x12Of(remittance) })).status).toBe(200);

    // An 835 that pays nothing (a denial, BPR02 0) expects no deposit: it waits for nothing.
    const denied: LineSpec[] = [{ procedureCode: '99213', chargeCents: 15_000, adjustments: [['CO', '50', 15_000]] }];
    const denial = remittanceOf([claimPayment((await createClaim(app.db, own)).id, '4', denied)], {
      paymentDate: '2026-11-16',
    });
    expect(denial.paymentCents).toBe(0);
    const posted = await client.post('/api/remittances', { x12: x12Of(denial) });
    expect(posted.status, posted.text).toBe(200);
    // The home screen counts what the reconciliation screen lists, waiting or reported.
    const waitingOnHome = async () => ((await client.get('/api/home')).body as HomeSummary).money;

    const listed = await client.get('/api/reconciliation/variances');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      variances: [],
      waiting: [
        {
          waitingFor: 'deposit',
          words: 'Waiting for the deposit',
          day: '2026-11-16',
          reference: remittance.traceNumber,
          eraCents: 10_000,
          depositCents: null,
          varianceFrom: '2026-11-19',
        },
      ],
    });
    expect(await waitingOnHome()).toMatchObject({ erasWaitingForDeposit: 1, unmatchedDeposits: 0 });
    expect((await client.get('/api/reconciliation/variances?day=2026-11-17')).body).toEqual({
      variances: [],
      waiting: [],
    });

    // The nightly run of Thursday reports it: a variance now, no longer waiting.
    const cron = { authorization: `Bearer ${TEST_SECRETS.CRON_SECRET}` };
    const run = await new HttpClient(app.url).request('POST', '/api/jobs/reconcile?day=2026-11-19', {
      headers: cron,
    });
    expect(run.status).toBe(200);
    const reported = await client.get('/api/reconciliation/variances');
    expect(reported.body.waiting).toEqual([]);
    expect(reported.body.variances.map((v: Variance) => [v.kind, v.reference])).toEqual([
      ['era_without_deposit', remittance.traceNumber],
    ]);
    expect(await waitingOnHome()).toMatchObject({ erasWaitingForDeposit: 1, unmatchedDeposits: 0 });

    // The deposit arrives: matched, nothing waits and (after the next run) nothing is left.
    const deposit = await deliver('/api/webhooks/banking', TEST_SECRETS.WEBHOOK_SECRET_BANKING, {
      id: uid('evt'),
      type: 'banking.transaction.posted',
      createdAt: new Date().toISOString(),
      clinicId: own.clinicId,
      data: {
        transactionId: uid('btx'),
        amountCents: 10_000,
        direction: 'credit',
        postedAt: '2026-11-19T10:00:00Z',
        railReference: remittance.traceNumber,
      },
    });
    expect(deposit.status, deposit.text).toBe(200);
    await new HttpClient(app.url).request('POST', '/api/jobs/reconcile?day=2026-11-20', { headers: cron });
    const settled = await client.get('/api/reconciliation/variances');
    expect(settled.body.waiting).toEqual([]);
    expect(settled.body.variances.filter((v: Variance) => v.reference === remittance.traceNumber)).toEqual([]);
    expect(await waitingOnHome()).toMatchObject({ erasWaitingForDeposit: 0, unmatchedDeposits: 0 });
  });

  it('a negative BPR02 is 422 and posts nothing', async () => {
    const sent = await createClaim(app.db, tenant);
    const before = await claimTrace(sent.id);
    const remittances = await app.db.remittance.count({ where: { clinicId: tenant.clinicId } });
    // Balanced as written (a reversal of 100.00 paid as BPR02 -100.00): only the sign rule refuses it.
    const reversal = remittanceOf([claimPayment(sent.id, '1', lines)]);
    const x12 = x12Of(reversal)
      .replace('BPR*I*100*C*', 'BPR*I*-100*C*')
      .replace(`CLP*${sent.id}*1*150*100*25`, `CLP*${sent.id}*22*-150*-100*-25`)
      .replaceAll('SVC*HC:99213*150*100', 'SVC*HC:99213*-150*-100')
      .replace('CAS*CO*45*25', 'CAS*CO*45*-25')
      .replace('CAS*PR*1*25', 'CAS*PR*1*-25');
    const res = await staff.post('/api/remittances', { x12 });
    expect(res.status, res.text).toBe(422);
    expect(res.body).toEqual({
      code: 'UNPROCESSABLE',
      message: 'The 835 cannot be posted: BPR02 (total payment) is negative (-100): its direction is BPR03 C or D',
      correlationId: expect.any(String),
    });
    expect(await claimTrace(sent.id)).toEqual(before);
    expect(await app.db.remittance.count({ where: { clinicId: tenant.clinicId } })).toBe(remittances);
  });

  it.each([
    ['BEL in the payer name (JSON)', '\u0007', 'json'],
    ['a right-to-left override in the payer name (multipart)', '\u202e', 'multipart'],
    ['ESC in the payer name (multipart)', '\u001b', 'multipart'],
    ['NUL in the payer name (multipart)', '\u0000', 'multipart'],
  ])('upload: %s is 400 VALIDATION_FAILED and nothing is stored', async (_label, character, how) => {
    const sent = await createClaim(app.db, tenant);
    const before = await claimTrace(sent.id);
    const remittances = await app.db.remittance.count({ where: { clinicId: tenant.clinicId } });
    const x12 = x12Of(remittanceOf([claimPayment(sent.id, '1', lines)])).replace(
      'N1*PR*AETNA*',
      `N1*PR*AET${character}NA*`,
    );
    expect(x12).toContain(character);
    let res;
    if (how === 'json') {
      res = await staff.post('/api/remittances', { x12 });
    } else {
      const form = new FormData();
      form.append('file', new Blob([x12], { type: 'application/edi-x12' }), 'era.835');
      res = await staff.request('POST', '/api/remittances', { body: form });
    }
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.text).not.toContain(character);
    expect(await claimTrace(sent.id)).toEqual(before);
    expect(await app.db.remittance.count({ where: { clinicId: tenant.clinicId } })).toBe(remittances);
    expect(
      await app.db.remittance.count({ where: { payerName: { contains: 'AET' }, NOT: { payerName: 'AETNA' } } }),
    ).toBe(0);
  });

  it('upload: a reversal of a payment never posted is kept unmatched with its reason, and posts nothing to its claim', async () => {
    const sent = await createClaim(app.db, tenant);
    const never = await createClaim(app.db, tenant);
    const before = await claimTrace(never.id);
    // Beside a payment of the same amount: BPR02 0.
    const res = await staff.post('/api/remittances', {
      x12: x12Of(remittanceOf([reversalOf(claimPayment(never.id, '1', lines)), claimPayment(sent.id, '1', lines)])),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.remittances[0]).toMatchObject({ duplicate: false, claimsPosted: 1, claimsUnmatched: 1 });
    expect(await claimTrace(never.id)).toEqual(before);
    const detail = await staff.get(`/api/remittances/${res.body.remittances[0].remittanceId}`);
    expect(detail.status).toBe(200);
    expect(detail.body.claims[0]).toMatchObject({
      claimId: never.id,
      posting: 'unmatched',
      unmatchedReason: 'The reversal (CLP02 22) takes back more than was posted to the claim',
      paidCents: -10_000,
    });
  });

  it('upload: an interchange whose second 835 cannot post is 422 and posts nothing of the first', async () => {
    const [a, b] = [await createClaim(app.db, tenant), await createClaim(app.db, tenant)];
    const before = await claimTrace(a.id);
    const remittances = await app.db.remittance.count({ where: { clinicId: tenant.clinicId } });
    const huge = 2_200_000_000;
    const res = await staff.post('/api/remittances', {
      x12: interchangeOf([
        remittanceOf([claimPayment(a.id, '1', lines)]),
        remittanceOf([
          claimPayment(b.id, '1', [{ procedureCode: '99213', chargeCents: huge, adjustments: [['PR', '1', huge]] }]),
        ]),
      ]),
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body).toEqual({
      code: 'UNPROCESSABLE',
      message: `The patient's bill for claim "${b.id}" would exceed 2147483647 cents; nothing was posted`,
      correlationId: expect.any(String),
    });
    expect(await claimTrace(a.id)).toEqual(before);
    expect(await app.db.remittance.count({ where: { clinicId: tenant.clinicId } })).toBe(remittances);
  });

  it('upload and ERA webhook: a different 835 reusing a posted payer id and TRN02 is 422 and posts nothing; the same 835 re-sent is a duplicate', async () => {
    const [a, b] = [await createClaim(app.db, tenant), await createClaim(app.db, tenant)];
    const traceNumber = uid('EFT').toUpperCase();
    const first = x12Of(remittanceOf([claimPayment(a.id, '1', lines)], { traceNumber }));
    const posted = await staff.post('/api/remittances', { x12: first });
    expect(posted.status, posted.text).toBe(200);

    const before = await claimTrace(b.id);
    const other = x12Of(remittanceOf([claimPayment(b.id, '1', lines)], { traceNumber }));
    const message =
      `An 835 from payer "60054" with trace number (TRN02) "${traceNumber}" was posted before with different ` +
      'content; nothing was posted (a corrected remittance carries a trace number of its own)';
    const res = await staff.post('/api/remittances', { x12: other });
    expect(res.status, res.text).toBe(422);
    expect(res.body).toEqual({ code: 'UNPROCESSABLE', message, correlationId: expect.any(String) });
    expect(await claimTrace(b.id)).toEqual(before);

    const id = uid('evt');
    const refused = await era(other, id);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body).toMatchObject({ code: 'UNPROCESSABLE', message });
    expect(await app.db.webhookDelivery.count({ where: { envelopeId: id } })).toBe(0);
    expect(await claimTrace(b.id)).toEqual(before);

    const again = await staff.post('/api/remittances', { x12: first });
    expect(again.status, again.text).toBe(200);
    expect(again.body.remittances).toEqual([{ ...posted.body.remittances[0], duplicate: true }]);
  });

  it('ERA webhook: a control character in the 835 is 400 and nothing is recorded', async () => {
    const sent = await createClaim(app.db, tenant);
    const before = await claimTrace(sent.id);
    const id = uid('evt');
    const x12 = x12Of(remittanceOf([claimPayment(sent.id, '1', lines)])).replace('N1*PR*AETNA*', 'N1*PR*AET\u001bNA*');
    const res = await era(x12, id);
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(await app.db.webhookDelivery.count({ where: { envelopeId: id } })).toBe(0);
    expect(await claimTrace(sent.id)).toEqual(before);
  });
});
