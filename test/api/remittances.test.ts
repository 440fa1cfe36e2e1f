// The staff upload and the billing screens' reads over real HTTP and PostgreSQL: POST /api/remittances (JSON and
// multipart, 413 caps, 422 reasons with nothing posted, tenancy, idempotency under 50 concurrent copies), then
// GET /api/remittances(/{id}), /api/bills and /api/denials with their scopes.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createTenant, createUser, type TestTenant } from '../support/factories';
import { claimPayment, createClaim, remittanceOf, x12Of, type LineSpec } from '../support/remittances';

const error = (code: string, message: string | RegExp) => ({
  code,
  message: typeof message === 'string' ? message : expect.stringMatching(message),
  correlationId: expect.any(String),
});

const EMPTY_835 = fs.readFileSync('lib/x12/fixtures/835-empty.x12', 'utf8');

const paidLines: LineSpec[] = [
  {
    procedureCode: '99213',
    chargeCents: 15_000,
    adjustments: [
      ['CO', '45', 4_025],
      ['PR', '1', 5_000],
      ['PR', '2', 1_195],
    ],
  },
  { procedureCode: '81002', chargeCents: 10_000, adjustments: [['CO', '45', 6_000]] },
];
const deniedLines: LineSpec[] = [{ procedureCode: '99214', chargeCents: 30_000, adjustments: [['CO', '197', 30_000]] }];

describe('remittance upload and reads', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let billing: HttpClient;
  let reader: HttpClient;

  beforeAll(async () => {
    app = await startApp();
    tenant = await createTenant(app.db, 'Remit');
    other = await createTenant(app.db, 'Other');
    const user = await createUser(app.db, tenant, { scopes: ['svcpay:read', 'svcpay:write', 'claims:read'] });
    billing = await signIn(app, user.email, user.password);
    const readOnly = await createUser(app.db, tenant, { scopes: ['claims:read'] });
    reader = await signIn(app, readOnly.email, readOnly.password);
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function counts(clinicId: string) {
    const [remittances, ledger, bills, events] = await Promise.all([
      app.db.remittance.count({ where: { clinicId } }),
      app.db.ledgerTransaction.count({ where: { clinicId } }),
      app.db.patientBill.count({ where: { clinicId } }),
      app.db.claimEvent.count({ where: { clinicId } }),
    ]);
    return { remittances, ledger, bills, events };
  }

  it('posts an uploaded 835 (JSON) and shows it in the list, the detail, the bills and the denial queue', async () => {
    const paid = await createClaim(app.db, tenant);
    const denied = await createClaim(app.db, tenant, { lines: [{ procedureCode: '99214', chargeCents: 30_000 }] });
    const remittance = remittanceOf([claimPayment(paid.id, '1', paidLines), claimPayment(denied.id, '4', deniedLines)]);
    const res = await billing.post('/api/remittances', { x12: x12Of(remittance) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      remittances: [
        {
          remittanceId: expect.any(String),
          payerId: '60054',
          traceNumber: remittance.traceNumber,
          paymentCents: 8_780,
          duplicate: false,
          claimsPosted: 2,
          claimsUnmatched: 0,
        },
      ],
      correlationId: expect.any(String),
    });
    const id = res.body.remittances[0].remittanceId;

    const list = await billing.get('/api/remittances');
    expect(list.status).toBe(200);
    expect(list.body.remittances[0]).toEqual({
      id,
      payerName: 'AETNA',
      payerId: '60054',
      traceNumber: remittance.traceNumber,
      paymentCents: 8_780,
      paymentDate: '2026-11-20',
      paymentMethod: 'ACH',
      claimCount: 2,
      unmatchedCount: 0,
      createdAt: expect.any(String),
      source: 'upload',
    });

    const detail = await billing.get(`/api/remittances/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id, depositMatched: false, providerAdjustments: [], payeeNpi: '1234567893' });
    expect(detail.body.claims[0]).toMatchObject({
      claimId: paid.id,
      patientId: paid.patientId,
      // Named, as the bills below: billing reads remittances without patients:read.
      patientName: await app.db.patient
        .findUniqueOrThrow({ where: { id: paid.patientId } })
        .then((p) => `${p.firstName} ${p.lastName}`),
      statusCode: '1',
      statusText: 'Processed as primary',
      chargeCents: 25_000,
      paidCents: 8_780,
      patientResponsibilityCents: 6_195,
      remarks: [],
    });
    expect(detail.body.claims[0].adjustments).toContainEqual({
      group: 'PR',
      reason: '1',
      amountCents: 5_000,
      description: 'Deductible Amount',
      line: 1,
    });
    expect(detail.body.claims[1]).toMatchObject({
      claimId: denied.id,
      statusCode: '4',
      statusText: 'Denied',
      paidCents: 0,
    });

    const bills = await billing.get('/api/bills');
    expect(bills.status).toBe(200);
    expect(bills.body.bills.find((b: { claimId: string | null }) => b.claimId === paid.id)).toEqual({
      billId: expect.any(String),
      patientId: paid.patientId,
      // Billing has no patients:read: the bill names the patient itself.
      patientName: await app.db.patient
        .findUniqueOrThrow({ where: { id: paid.patientId } })
        .then((p) => `${p.firstName} ${p.lastName}`),
      claimId: paid.id,
      amountCents: 6_195,
      paidCents: 0,
      status: 'open',
      createdAt: expect.any(String),
      payments: [],
    });

    // The denial queue is a claims:read screen: a user without svcpay can read it.
    const denials = await reader.get('/api/denials');
    expect(denials.status).toBe(200);
    expect(denials.body.denials).toEqual([
      {
        claimId: denied.id,
        patientId: denied.patientId,
        // Named: billing works this queue without patients:read (issue 28).
        patientName: 'Pat Ient',
        status: 'denied',
        statusReason: 'CO-197: Precertification/authorization/notification/pre-treatment absent.',
        serviceDate: '2026-11-02',
        payerId: '60054',
        payerName: 'Aetna',
        totalChargeCents: 30_000,
        paidCents: 0,
        patientResponsibilityCents: 0,
        adjustmentCents: 30_000,
        writtenOffCents: 0,
        // The 835 took the whole charge off (CO-197): nothing left with the payer.
        balanceCents: 0,
        remittanceId: id,
        codes: [
          {
            group: 'CO',
            reason: '197',
            amountCents: 30_000,
            description: 'Precertification/authorization/notification/pre-treatment absent.',
            line: 1,
          },
        ],
        remarks: [],
        nextAction: 'appeal',
        nextActionReason:
          'The authorization was missing or invalid; obtain it (or its number) and appeal with it attached. (CARC 197)',
        appeal: { method: 'POST', path: `/api/claims/${denied.id}/appeal` },
        claimPath: `/claims/${denied.id}`,
        updatedAt: expect.any(String),
      },
    ]);
    const noAppeals = { write_off: 0, correct_and_resubmit: 0, bill_secondary: 0, bill_patient: 0, none: 0 };
    expect(denials.body.counts).toEqual({ ...noAppeals, appeal: 1 });
    // The filter keeps one action; the counts stay those of the whole queue.
    expect((await reader.get('/api/denials?nextAction=appeal')).body.denials).toHaveLength(1);
    expect((await reader.get('/api/denials?nextAction=write_off')).body).toEqual({
      denials: [],
      counts: { ...noAppeals, appeal: 1 },
    });
    expect((await reader.get('/api/denials?nextAction=later')).status).toBe(400);
  });

  it('takes a multipart upload (field file)', async () => {
    const claim = await createClaim(app.db, tenant);
    const remittance = remittanceOf([claimPayment(claim.id, '1', paidLines)]);
    const form = new FormData();
    form.append('file', new Blob([x12Of(remittance)], { type: 'application/edi-x12' }), 'era.835');
    const res = await billing.request('POST', '/api/remittances', { body: form });
    expect(res.status).toBe(200);
    expect(res.body.remittances[0]).toMatchObject({
      traceNumber: remittance.traceNumber,
      duplicate: false,
      claimsPosted: 1,
    });
  });

  it('answers 50 concurrent copies of one 835 with one posting: the same remittance, one duplicate: false', async () => {
    const claim = await createClaim(app.db, tenant);
    const x12 = x12Of(remittanceOf([claimPayment(claim.id, '1', paidLines)]));
    const before = await counts(tenant.clinicId);
    const results = await Promise.all(Array.from({ length: 50 }, () => billing.post('/api/remittances', { x12 })));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(new Set(results.map((r) => r.body.remittances[0].remittanceId)).size).toBe(1);
    expect(results.filter((r) => r.body.remittances[0].duplicate === false)).toHaveLength(1);
    const after = await counts(tenant.clinicId);
    expect(after.remittances - before.remittances).toBe(1);
    // Charge booking + the claim's posting; one bill for the PR; one event.
    expect(after.ledger - before.ledger).toBe(2);
    expect(after.bills - before.bills).toBe(1);
    expect(after.events - before.events).toBe(1);
    const row = await app.db.claim.findUniqueOrThrow({ where: { id: claim.id } });
    expect(row.paidCents).toBe(8_780n);
  });

  it.each([
    [
      'an unbalanced 835',
      (x12: string) => x12.replace('BPR*I*87.8*', 'BPR*I*87.9*'),
      /^The 835 cannot be posted: does not balance: transaction rule/,
    ],
    [
      'an 835 without claims',
      () => EMPTY_835,
      'The 835 cannot be posted: 835 "0001" is empty: it has no claim payment (CLP)',
    ],
    ['an empty upload', () => '   ', 'The 835 is empty: there is nothing to post'],
  ])('refuses %s with 422 and posts nothing', async (_label, mangle, message) => {
    const claim = await createClaim(app.db, tenant);
    const x12 = x12Of(remittanceOf([claimPayment(claim.id, '1', paidLines)]));
    const before = await counts(tenant.clinicId);
    const res = await billing.post('/api/remittances', { x12: mangle(x12) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(error('UNPROCESSABLE', message));
    expect(await counts(tenant.clinicId)).toEqual(before);
  });

  it("refuses an 835 naming another clinic's claim (422) and posts nothing in either clinic", async () => {
    const theirs = await createClaim(app.db, other);
    const before = [await counts(tenant.clinicId), await counts(other.clinicId)];
    const res = await billing.post('/api/remittances', {
      x12: x12Of(remittanceOf([claimPayment(theirs.id, '1', paidLines)])),
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      error('UNPROCESSABLE', `The 835 names no claim of this clinic (CLP01 "${theirs.id}"); nothing was posted`),
    );
    expect([await counts(tenant.clinicId), await counts(other.clinicId)]).toEqual(before);
    expect((await app.db.claim.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe('accepted');
  });

  it('caps the upload at 64 MiB with 413 and a sentence, posting nothing', async () => {
    const tooLarge = error(
      'PAYLOAD_TOO_LARGE',
      'The upload is larger than 64 MiB; ask the payer to split the interchange',
    );
    const before = await counts(tenant.clinicId);
    // 64 MiB + 1 byte, streamed without a length, in 1 MiB chunks: 413, nothing posted.
    const chunk = new TextEncoder().encode('ISA' + ' '.repeat(1024 * 1024 - 3));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const left = 64 * 1024 * 1024 + 1 - sent;
        if (left <= 0) return controller.close();
        const part = left >= chunk.byteLength ? chunk : chunk.subarray(0, left);
        sent += part.byteLength;
        controller.enqueue(part);
      },
    });
    const streamed = await billing.request('POST', '/api/remittances', {
      body,
      headers: { 'content-type': 'application/edi-x12' },
    });
    expect(streamed.status).toBe(413);
    expect(streamed.body).toEqual(tooLarge);
    expect(await counts(tenant.clinicId)).toEqual(before);
  }, 120_000);

  it('posts an 835 sent as application/edi-x12, read while it streams', async () => {
    const claim = await createClaim(app.db, tenant);
    const remittance = remittanceOf([claimPayment(claim.id, '1', paidLines)]);
    const res = await billing.request('POST', '/api/remittances', {
      body: x12Of(remittance),
      headers: { 'content-type': 'application/edi-x12' },
    });
    expect(res.status).toBe(200);
    expect(res.body.remittances[0]).toMatchObject({ traceNumber: remittance.traceNumber, claimsPosted: 1 });
  });

  it('refuses a body that is neither multipart nor JSON (400)', async () => {
    const res = await billing.request('POST', '/api/remittances', {
      body: 'ISA*00',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(
      error(
        'VALIDATION_FAILED',
        'Send the 835 as application/edi-x12, as multipart/form-data (field "file") or as JSON { "x12": "..." }',
      ),
    );
  });

  it('needs svcpay:write to upload and svcpay:read to list; another clinic sees none of it', async () => {
    const claim = await createClaim(app.db, tenant);
    const x12 = x12Of(remittanceOf([claimPayment(claim.id, '1', paidLines)]));
    expect((await reader.post('/api/remittances', { x12 })).body).toEqual(
      error('SCOPE_MISSING', 'This action needs the svcpay:write scope'),
    );
    expect((await reader.get('/api/remittances')).body).toEqual(
      error('SCOPE_MISSING', 'This action needs the svcpay:read scope'),
    );
    expect((await reader.get('/api/bills')).body).toEqual(
      error('SCOPE_MISSING', 'This action needs the svcpay:read scope'),
    );
    const mine = (await billing.get('/api/remittances')).body.remittances[0].id;
    const stranger = await createUser(app.db, other, { scopes: ['svcpay:read', 'claims:read'] });
    const south = await signIn(app, stranger.email, stranger.password);
    expect((await south.get('/api/remittances')).body).toEqual({ remittances: [] });
    expect((await south.get(`/api/remittances/${mine}`)).body).toEqual(error('NOT_FOUND', 'No such remittance'));
    expect((await south.get('/api/denials')).body).toEqual({
      denials: [],
      counts: { write_off: 0, correct_and_resubmit: 0, appeal: 0, bill_secondary: 0, bill_patient: 0, none: 0 },
    });
    expect((await south.get('/api/bills')).body).toEqual({ bills: [] });
  });
});
