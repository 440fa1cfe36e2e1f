// Write-offs and the next action over real HTTP and PostgreSQL: POST /api/claims/{id}/write-off (svcpay:write,
// step-up, tenancy, the state and amount rules with nothing written on a refusal, concurrent write-offs never past
// the balance, the ledger posting, closing at 0) and the claim view's balanceCents and nextAction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { stepUpHeader } from '../support/step-up-claim';
import { createTenant, createUser, type TestTenant, type TestUser } from '../support/factories';
import { claimPayment, createClaim, remittanceOf, x12Of } from '../support/remittances';

const error = (code: string, message: string | RegExp) => ({
  code,
  message: typeof message === 'string' ? message : expect.stringMatching(message),
  correlationId: expect.any(String),
});

describe('claim write-offs', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let billingUser: TestUser;
  let billing: HttpClient;

  beforeAll(async () => {
    app = await startApp();
    tenant = await createTenant(app.db, 'WriteOff');
    other = await createTenant(app.db, 'Other');
    billingUser = await createUser(app.db, tenant, {
      scopes: ['svcpay:read', 'svcpay:write', 'claims:read', 'claims:write'],
    });
    billing = await signIn(app, billingUser.email, billingUser.password);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const writeOff = async (client: HttpClient, email: string, claimId: string, body: unknown) =>
    client.post(`/api/claims/${claimId}/write-off`, body, { headers: await stepUpHeader(app, email) });

  /** Everything a write-off writes, to show a refusal wrote none of it. */
  async function written(claimId: string) {
    const [claim, ledger, events, audits] = await Promise.all([
      app.db.claim.findUniqueOrThrow({ where: { id: claimId }, select: { status: true, writtenOffCents: true } }),
      app.db.ledgerTransaction.count({ where: { reference: `claim:${claimId}` } }),
      app.db.claimEvent.count({ where: { claimId } }),
      app.db.auditLog.count({ where: { action: 'claims.write_off', detail: { path: ['claimId'], equals: claimId } } }),
    ]);
    return { ...claim, ledger, events, audits };
  }

  /** A claim of two lines (250.00) whose 835 denied the first (CO-<carc>) and never adjudicated the second. */
  async function deniedClaim(carc: string) {
    const claim = await createClaim(app.db, tenant);
    const remittance = remittanceOf([
      claimPayment(claim.id, '4', [
        { procedureCode: '99213', chargeCents: 15_000, adjustments: [['CO', carc, 15_000]] },
      ]),
    ]);
    expect((await billing.post('/api/remittances', { x12: x12Of(remittance) })).status).toBe(200);
    return claim;
  }

  it('writes off part of the balance: a balanced ledger posting, the timeline and the audit, the claim still open', async () => {
    const claim = await createClaim(app.db, tenant);
    const correlationId = 'write-off-partial-0001';
    const res = await billing.post(
      `/api/claims/${claim.id}/write-off`,
      { amountCents: 4_000, reason: 'Small balance policy' },
      { headers: { ...(await stepUpHeader(app, billingUser.email)), 'x-correlation-id': correlationId } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      claimId: claim.id,
      status: 'accepted',
      totalChargeCents: 25_000,
      writtenOffCents: 4_000,
      balanceCents: 21_000,
      nextAction: null,
      nextActionReason: null,
      ledgerTransactionId: expect.stringMatching(/^ltx_/),
    });
    // No 835 has booked the charge yet, so the write-off books it first: the receivable holds what it takes from.
    const postings = await app.db.ledgerTransaction.findMany({
      where: { clinicId: tenant.clinicId, reference: `claim:${claim.id}` },
      include: { entries: { orderBy: { account: 'asc' } } },
      orderBy: { kind: 'asc' },
    });
    expect(postings.map((p) => [p.kind, p.entries.map((e) => [e.account, e.amountCents])])).toEqual([
      [
        'claim.charge',
        [
          ['assets:claims-receivable', 25_000n],
          ['revenue:patient-services', -25_000n],
        ],
      ],
      [
        'claim.write_off',
        [
          ['assets:claims-receivable', -4_000n],
          ['expenses:claim-write-offs', 4_000n],
        ],
      ],
    ]);
    expect(postings[1]!.id).toBe(res.body.ledgerTransactionId);
    expect(postings[1]!.correlationId).toBe(correlationId);
    const events = await app.db.claimEvent.findMany({ where: { claimId: claim.id, kind: 'write_off' } });
    expect(events).toEqual([
      expect.objectContaining({
        fromStatus: null,
        toStatus: null,
        detail: {
          amountCents: 4_000,
          reason: 'Small balance policy',
          ledgerTransactionId: res.body.ledgerTransactionId,
          by: billingUser.id,
        },
      }),
    ]);
    expect(await app.db.auditLog.findMany({ where: { correlationId, action: 'claims.write_off' } })).toEqual([
      expect.objectContaining({
        outcome: 'success',
        userId: billingUser.id,
        clinicId: tenant.clinicId,
        detail: { claimId: claim.id, amountCents: 4_000, ledgerTransactionId: res.body.ledgerTransactionId },
      }),
    ]);
  });

  it('closes a claim whose balance reaches 0, with the reason, and refuses any further write-off with 409', async () => {
    const claim = await deniedClaim('29');
    const before = await billing.get(`/api/claims/${claim.id}`);
    expect(before.body).toMatchObject({
      status: 'denied',
      adjustmentCents: 15_000,
      balanceCents: 10_000,
      nextAction: 'write_off',
      nextActionReason: expect.stringMatching(/time limit for filing has expired.*\(CARC 29\)$/),
    });
    const res = await writeOff(billing, billingUser.email, claim.id, {
      amountCents: 10_000,
      reason: 'Timely filing limit passed',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'closed',
      statusReason: 'Written off: Timely filing limit passed',
      writtenOffCents: 10_000,
      balanceCents: 0,
      nextAction: null,
    });
    const detail = await billing.get(`/api/claims/${claim.id}`);
    expect(detail.body.timeline.at(-1)).toMatchObject({ kind: 'write_off', fromStatus: 'denied', toStatus: 'closed' });
    const again = await writeOff(billing, billingUser.email, claim.id, { amountCents: 1, reason: 'Again' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(
      error('NOT_EXECUTABLE', 'Only a claim that was sent and is not closed can be written off; this one is closed'),
    );
    // The claims-receivable of this claim is back to zero: booked charge − 835 CLP03 − write-off.
    const entries = await app.db.ledgerEntry.findMany({
      where: {
        account: 'assets:claims-receivable',
        transaction: {
          clinicId: tenant.clinicId,
          OR: [{ reference: `claim:${claim.id}` }, { reference: { startsWith: 'remittance:' } }],
        },
      },
      include: { transaction: true },
    });
    const mine = entries.filter((e) => e.transaction.reference === `claim:${claim.id}` || e.amountCents === -15_000n);
    expect(mine.reduce((t, e) => t + e.amountCents, 0n)).toBe(0n);
  });

  it.each<[string, unknown, number, object]>([
    ['a zero amount', { amountCents: 0, reason: 'x' }, 422, error('UNPROCESSABLE', /^amountCents must be more than 0/)],
    [
      'a negative amount',
      { amountCents: -5, reason: 'x' },
      422,
      error('UNPROCESSABLE', /^amountCents must be more than 0/),
    ],
    [
      'more than the balance',
      { amountCents: 25_001, reason: 'x' },
      422,
      error('UNPROCESSABLE', "amountCents must be more than 0 and at most the claim's balance, 25000 cents"),
    ],
    ['a fraction of a cent', { amountCents: 10.5, reason: 'x' }, 400, { code: 'VALIDATION_FAILED' }],
    ['no reason', { amountCents: 100, reason: '  ' }, 400, { code: 'VALIDATION_FAILED' }],
  ])('refuses %s and writes nothing', async (_label, body, status, expected) => {
    const claim = await createClaim(app.db, tenant);
    const before = await written(claim.id);
    const res = await writeOff(billing, billingUser.email, claim.id, body);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject(expected);
    expect(await written(claim.id)).toEqual(before);
  });

  it('refuses a draft with 409 and writes nothing', async () => {
    const claim = await createClaim(app.db, tenant, { status: 'draft' });
    const before = await written(claim.id);
    const res = await writeOff(billing, billingUser.email, claim.id, { amountCents: 100, reason: 'x' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(
      error('NOT_EXECUTABLE', 'Only a claim that was sent and is not closed can be written off; this one is draft'),
    );
    expect(await written(claim.id)).toEqual(before);
  });

  it('refuses a denied claim the 835 left nothing on, with 422', async () => {
    const claim = await createClaim(app.db, tenant, { lines: [{ procedureCode: '99214', chargeCents: 30_000 }] });
    const remittance = remittanceOf([
      claimPayment(claim.id, '4', [
        { procedureCode: '99214', chargeCents: 30_000, adjustments: [['CO', '119', 30_000]] },
      ]),
    ]);
    expect((await billing.post('/api/remittances', { x12: x12Of(remittance) })).status).toBe(200);
    const view = await billing.get(`/api/claims/${claim.id}`);
    expect(view.body).toMatchObject({ status: 'denied', balanceCents: 0, nextAction: 'write_off' });
    const res = await writeOff(billing, billingUser.email, claim.id, { amountCents: 1, reason: 'x' });
    expect(res.status).toBe(422);
  });

  it('asks for the step-up, the scope and a session, and answers 404 for another clinic’s claim, writing nothing', async () => {
    const claim = await createClaim(app.db, tenant);
    const theirs = await createClaim(app.db, other);
    const before = [await written(claim.id), await written(theirs.id)];
    const body = { amountCents: 100, reason: 'x' };

    const stale = await billing.post(`/api/claims/${claim.id}/write-off`, body);
    expect(stale.status).toBe(401);
    expect(stale.body).toMatchObject({ code: 'STEP_UP_REQUIRED' });

    const claimsOnly = await createUser(app.db, tenant, { scopes: ['claims:read', 'claims:write', 'svcpay:read'] });
    const clerk = await signIn(app, claimsOnly.email, claimsOnly.password);
    const noScope = await writeOff(clerk, claimsOnly.email, claim.id, body);
    expect(noScope.status).toBe(403);
    expect(noScope.body).toMatchObject({ code: 'SCOPE_MISSING' });

    const anonymous = await fetch(`${app.url}/api/claims/${claim.id}/write-off`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(anonymous.status).toBe(401);

    const crossTenant = await writeOff(billing, billingUser.email, theirs.id, body);
    expect(crossTenant.status).toBe(404);
    expect(crossTenant.body).toEqual(error('NOT_FOUND', 'No such claim'));
    expect([await written(claim.id), await written(theirs.id)]).toEqual(before);
  });

  it('never writes off more than the balance under concurrent requests', async () => {
    const claim = await createClaim(app.db, tenant);
    const headers = await stepUpHeader(app, billingUser.email);
    // 12 × 3,000 against a 25,000 balance: 8 fit (24,000), the other 4 must be refused.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        billing.post(`/api/claims/${claim.id}/write-off`, { amountCents: 3_000, reason: `race ${i}` }, { headers }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(8).fill(200), ...Array(4).fill(422)]);
    const row = await app.db.claim.findUniqueOrThrow({ where: { id: claim.id } });
    expect(row.writtenOffCents).toBe(24_000n);
    expect(row.status).toBe('accepted');
    const writeOffs = await app.db.ledgerTransaction.findMany({
      where: { reference: `claim:${claim.id}`, kind: 'claim.write_off' },
      include: { entries: true },
    });
    expect(writeOffs).toHaveLength(8);
    expect(
      writeOffs
        .flatMap((t) => t.entries)
        .filter((e) => e.account === 'expenses:claim-write-offs')
        .reduce((t, e) => t + e.amountCents, 0n),
    ).toBe(24_000n);
    // The charge was booked once, whichever write-off came first.
    expect(
      await app.db.ledgerTransaction.count({ where: { reference: `claim:${claim.id}`, kind: 'claim.charge' } }),
    ).toBe(1);
    // The last 1,000 closes it.
    const last = await writeOff(billing, billingUser.email, claim.id, { amountCents: 1_000, reason: 'rest' });
    expect(last.body).toMatchObject({ status: 'closed', balanceCents: 0 });
  });

  it('shows each claim’s next action on the claim list and the denial queue, filtered and counted', async () => {
    const fresh = await createTenant(app.db, 'Queue');
    const user = await createUser(app.db, fresh, { scopes: ['svcpay:read', 'svcpay:write', 'claims:read'] });
    const client = await signIn(app, user.email, user.password);
    const appeal = await createClaim(app.db, fresh);
    const correct = await createClaim(app.db, fresh);
    const patient = await createClaim(app.db, fresh);
    const remittance = remittanceOf([
      claimPayment(appeal.id, '4', [
        { procedureCode: '99213', chargeCents: 15_000, adjustments: [['CO', '50', 15_000]] },
      ]),
      claimPayment(correct.id, '4', [
        { procedureCode: '99213', chargeCents: 15_000, adjustments: [['CO', '16', 15_000]] },
      ]),
      claimPayment(patient.id, '1', [
        {
          procedureCode: '99213',
          chargeCents: 15_000,
          adjustments: [
            ['CO', '45', 4_000],
            ['PR', '2', 2_000],
            ['CO', '96', 1_000],
          ],
        },
        { procedureCode: '81002', chargeCents: 10_000, adjustments: [['CO', '45', 6_000]] },
      ]),
    ]);
    expect((await client.post('/api/remittances', { x12: x12Of(remittance) })).status).toBe(200);
    const queue = await client.get('/api/denials');
    expect(queue.status).toBe(200);
    const actions = Object.fromEntries(queue.body.denials.map((d: any) => [d.claimId, d.nextAction]));
    // CO-96 is an appeal code, and appeal comes before bill_patient in the ruled order.
    expect(actions).toEqual({ [appeal.id]: 'appeal', [correct.id]: 'correct_and_resubmit', [patient.id]: 'appeal' });
    expect(queue.body.counts).toEqual({
      write_off: 0,
      correct_and_resubmit: 1,
      appeal: 2,
      bill_secondary: 0,
      bill_patient: 0,
      none: 0,
    });
    const filtered = await client.get('/api/denials?nextAction=correct_and_resubmit');
    expect(filtered.body.denials.map((d: any) => d.claimId)).toEqual([correct.id]);
    expect(filtered.body.denials[0]).toMatchObject({
      balanceCents: 10_000,
      writtenOffCents: 0,
      nextActionReason: expect.stringMatching(/\(CARC 16\)$/),
    });
    expect(filtered.body.counts).toEqual(queue.body.counts);
    const list = await client.get('/api/claims?status=denied,partially_paid');
    expect(Object.fromEntries(list.body.claims.map((c: any) => [c.claimId, c.nextAction]))).toEqual(actions);
  });
});
