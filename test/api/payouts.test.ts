// Money out over real HTTP and PostgreSQL (DECISIONS "Money out"): the sealed payout account and its prenote,
// NACHA batches validated before any write, the exact file read back by an independent reader (served only once
// released), each file of a day its own File ID Modifier, release exactly once under a race and never on or after
// the effective date, the bank's confirmation disbursing once, an ACH return reversing once, a returned prenote
// unverifying the account; scope, step-up and tenancy on every route.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '@/lib/webhooks/verify-signature';
import { checkNachaText } from '@/lib/payouts/nacha-file';
import { readWithAchLibrary } from '@/lib/payouts/nacha-reader.test-support';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { stepUpHeader } from '../support/step-up-claim';
import { HttpClient, signIn } from '../support/http';
import { createTenant, createUser, TEST_PASSWORD, type TestTenant } from '../support/factories';

const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
const ACCOUNT = {
  routingNumber: '011000015',
  accountNumber: '000123456789',
  accountType: 'checking',
  holderName: 'Payout Clinic',
};

const put = (client: HttpClient, path: string, json: unknown, options: { headers?: Record<string, string> } = {}) =>
  client.request('PUT', path, { ...options, json });

async function bank(app: TestApp, clinicId: string, type: string, data: Record<string, unknown>) {
  const raw = JSON.stringify({ id: uid('evt'), type, createdAt: new Date().toISOString(), clinicId, data });
  const res = await new HttpClient(app.url).request('POST', '/api/webhooks/banking', {
    body: raw,
    headers: {
      'content-type': 'application/json',
      'x-svc-delivery': uid('dlv'),
      'x-svc-signature': signBody(Buffer.from(raw), TEST_SECRETS.WEBHOOK_SECRET_BANKING),
    },
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { outcome: string };
}

const posted = (app: TestApp, clinicId: string, railReference: string, amountCents: number) =>
  bank(app, clinicId, 'banking.transaction.posted', {
    transactionId: uid('btx'),
    amountCents,
    direction: 'debit',
    postedAt: new Date().toISOString(),
    railReference,
  });

describe('payouts', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let admin: HttpClient;
  let stepUp: Record<string, string>;
  let reader: HttpClient;
  let other: HttpClient;
  let otherStepUp: Record<string, string>;

  beforeAll(async () => {
    app = await startApp();
    tenant = await createTenant(app.db, 'Payout');
    const user = await createUser(app.db, tenant, { scopes: ['users:admin', 'svcpay:read', 'svcpay:write'] });
    const readOnly = await createUser(app.db, tenant, { scopes: ['svcpay:read'] });
    admin = await signIn(app, user.email, TEST_PASSWORD);
    stepUp = await stepUpHeader(app, user.email);
    reader = await signIn(app, readOnly.email, TEST_PASSWORD);
    other = await signIn(app, 'admin@southside.test');
    otherStepUp = await stepUpHeader(app, 'admin@southside.test');
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** A SIGNED instruction of the tenant paying `residualCents` to the clinic out of a fresh pool. */
  async function signedInstruction(residualCents: bigint, status = 'SIGNED', clinicId = tenant.clinicId) {
    const poolId = uid('pool');
    await app.db.settlementPool.create({
      data: { id: poolId, clinicId, availableCents: 1_000_000n, status: 'active' },
    });
    const id = uid('ins');
    const feeCents = 250n;
    const reserveCents = 1_000n;
    await app.db.settlementInstruction.create({
      data: {
        id,
        clinicId,
        poolId,
        status,
        advanceAmountCents: residualCents + feeCents + reserveCents,
        feeBps: 250,
        reserveBps: 1000,
        poolCents: 1_000_000n,
        feeCents,
        reserveCents,
        residualCents,
        createdBy: 'test',
        expiresAt: new Date(Date.now() + 3_600_000),
        correlationId: 'test',
      },
    });
    return { id, poolId };
  }

  /** The prenote batch's trace number, which the bank's return of the prenote names (last test). */
  let prenoteTrace = '';

  /** What the batch list says the next batch can be (the settlement screen offers the prenote only when due). */
  const accountState = async () => (await admin.get('/api/settlement/batches')).body.payoutAccount;

  it('keeps the payout account sealed and masked, behind users:admin and step-up, audited', async () => {
    expect(await accountState()).toBe('none');
    expect((await put(admin, '/api/clinic/payout-account', ACCOUNT)).status).toBe(401);
    expect((await put(reader, '/api/clinic/payout-account', ACCOUNT, { headers: stepUp })).status).toBe(403);
    const bad = await put(
      admin,
      '/api/clinic/payout-account',
      { ...ACCOUNT, routingNumber: '011000016' },
      { headers: stepUp },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toEqual([
      {
        path: 'body.routingNumber',
        message: "This routing number fails its ABA check digit: check it against the bank's letter or a cheque",
      },
    ]);

    const res = await put(admin, '/api/clinic/payout-account', ACCOUNT, { headers: stepUp });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      routingLast4: '0015',
      accountLast4: '6789',
      accountType: 'checking',
      holderName: 'Payout Clinic',
      verified: false,
      prenoteBatchId: null,
    });
    expect((await admin.get('/api/clinic/payout-account')).body).toEqual(res.body);
    const row = await app.db.payoutAccount.findUniqueOrThrow({ where: { clinicId: tenant.clinicId } });
    expect(JSON.stringify(row)).not.toContain('123456789');
    expect(JSON.stringify(row)).not.toContain('011000015');
    expect(
      await app.db.auditLog.count({ where: { clinicId: tenant.clinicId, action: 'clinic.payout-account.set' } }),
    ).toBe(1);
    expect((await other.get('/api/clinic/payout-account')).status).toBe(404); // the south clinic has none
    expect(await accountState()).toBe('needs_prenote');
  });

  it('refuses instructions until the prenote is confirmed, then verifies the account', async () => {
    const { id } = await signedInstruction(5_000n);
    const refused = await admin.post('/api/settlement/batches', { instructionIds: [id] }, { headers: stepUp });
    expect(refused.status).toBe(422);
    expect(refused.body.issues).toEqual([
      {
        path: 'payoutAccount',
        message: 'The payout account is not verified yet: send its prenote first (a batch of no instructions)',
      },
    ]);

    const prenote = await admin.post('/api/settlement/batches', { instructionIds: [] }, { headers: stepUp });
    expect(prenote.status, prenote.text).toBe(201);
    expect(prenote.body).toMatchObject({ status: 'created', entryCount: 1, totalCents: 0 });
    expect(await accountState()).toBe('prenote_sent');
    // The file reaches the bank only once released (the release commits the money).
    const early = await admin.get(`/api/settlement/batches/${prenote.body.batchId}/file`);
    expect(early.status).toBe(409);
    expect(early.body).toEqual({
      code: 'NOT_EXECUTABLE',
      message: 'The file of a payout batch is served once the batch is released: release it first',
      correlationId: expect.any(String),
    });
    expect(
      (await admin.post(`/api/settlement/batches/${prenote.body.batchId}/release`, undefined, { headers: stepUp }))
        .status,
    ).toBe(200);
    const file = await admin.get(`/api/settlement/batches/${prenote.body.batchId}/file`);
    expect(file.status).toBe(200);
    expect(file.text.split('\n')[2]!.slice(0, 3)).toBe('623'); // checking prenote
    prenoteTrace = prenote.body.traceNumber;
    expect((await posted(app, tenant.clinicId, prenote.body.traceNumber, 0)).outcome).toBe('applied');
    expect((await admin.get('/api/clinic/payout-account')).body.verified).toBe(true);
    expect(await accountState()).toBe('verified');
  });

  it('answers 422 naming every problem and writes nothing when one instruction is bad', async () => {
    const good = await signedInstruction(9_000n);
    const draft = await signedInstruction(9_000n, 'DRAFT');
    const theirs = await signedInstruction(9_000n, 'SIGNED', 'clinic_south');
    const before = await app.db.payoutBatch.count();
    const res = await admin.post(
      '/api/settlement/batches',
      { instructionIds: [good.id, draft.id, theirs.id, 'ins_nope'] },
      { headers: stepUp },
    );
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'UNPROCESSABLE', message: 'The batch failed batch-wire validation' });
    expect(res.body.issues).toEqual([
      { path: 'instructionIds[1]', message: `${draft.id} is DRAFT, not SIGNED` },
      { path: 'instructionIds[2]', message: `${theirs.id} is not an instruction of this clinic's pools` },
      { path: 'instructionIds[3]', message: "ins_nope is not an instruction of this clinic's pools" },
    ]);
    expect(await app.db.payoutBatch.count()).toBe(before);
    expect(await app.db.payoutEntry.count({ where: { instructionId: good.id } })).toBe(0);
  });

  it('needs svcpay:write and step-up, and keeps batches inside the clinic', async () => {
    const { id } = await signedInstruction(1_000n);
    expect((await admin.post('/api/settlement/batches', { instructionIds: [id] })).status).toBe(401);
    expect((await reader.post('/api/settlement/batches', { instructionIds: [id] }, { headers: stepUp })).status).toBe(
      403,
    );
    const theirs = await other.post('/api/settlement/batches', { instructionIds: [id] }, { headers: otherStepUp });
    expect(theirs.status).toBe(422);
    const created = await admin.post('/api/settlement/batches', { instructionIds: [id] }, { headers: stepUp });
    expect(created.status, created.text).toBe(201);
    for (const path of ['', '/file'])
      expect((await other.get(`/api/settlement/batches/${created.body.batchId}${path}`)).status).toBe(404);
    expect(
      (await other.post(`/api/settlement/batches/${created.body.batchId}/release`, undefined, { headers: otherStepUp }))
        .status,
    ).toBe(404);
  });

  it('puts an instruction in one batch only when two batches race for it', async () => {
    const { id } = await signedInstruction(2_000n);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        admin.post('/api/settlement/batches', { instructionIds: [id] }, { headers: stepUp }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422]);
    expect(await app.db.payoutEntry.count({ where: { instructionId: id } })).toBe(1);
    // Nor can the console's execute pay it a second time beside the file.
    const executed = await admin.post(
      `/api/settlement/console/${id}/execute`,
      { railReference: 'ACH-TRACE-X' },
      { headers: stepUp },
    );
    expect(executed.status).toBe(409);
    expect(executed.body.message).toBe('The instruction is in a payout batch: the bank file pays it');
  });

  it('serves the exact file, releases once under a race, disburses once on confirmation and reverses a return once', async () => {
    const a = await signedInstruction(12_345n);
    const b = await signedInstruction(67_890n);
    const created = await admin.post('/api/settlement/batches', { instructionIds: [a.id, b.id] }, { headers: stepUp });
    expect(created.status, created.text).toBe(201);
    const { batchId, traceNumber } = created.body;
    expect(created.body).toMatchObject({ entryCount: 2, totalCents: 80_235 });

    const releases = await Promise.all(
      Array.from({ length: 8 }, () =>
        admin.post(`/api/settlement/batches/${batchId}/release`, undefined, { headers: stepUp }),
      ),
    );
    expect(releases.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);

    const file = await admin.get(`/api/settlement/batches/${batchId}/file`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(file.text).toBe((await app.db.payoutBatch.findUniqueOrThrow({ where: { id: batchId } })).fileText);
    expect(checkNachaText(file.text)).toEqual([]);
    const parsed = await readWithAchLibrary(file.text);
    const entries = parsed.batches[0]!.entries;
    expect(entries.map((e) => [e.transactionCode, e.amount, e.dfiAccount, e.addenda.info])).toEqual([
      ['22', 12_345, '000123456789', `SETTLEMENT INSTRUCTION ${a.id.toUpperCase()}`],
      ['22', 67_890, '000123456789', `SETTLEMENT INSTRUCTION ${b.id.toUpperCase()}`],
    ]);
    expect(String(entries[0]!.traceNumber).padStart(15, '0')).toBe(traceNumber);
    expect(parsed.batches[0]!.footer.totalCredit).toBe(80_235);

    const pool = await app.db.settlementPool.findUniqueOrThrow({ where: { id: a.poolId } });
    expect(pool.availableCents).toBe(1_000_000n - 13_595n);
    // The ledger posts when the bank confirms the file, the day the cash leaves the FBO account.
    expect(await app.db.ledgerTransaction.count({ where: { reference: `settlement:${a.id}` } })).toBe(0);

    expect((await posted(app, tenant.clinicId, traceNumber, 80_235)).outcome).toBe('applied');
    expect((await posted(app, tenant.clinicId, traceNumber, 80_235)).outcome).toBe('applied'); // a second posting changes nothing
    expect(await app.db.ledgerTransaction.count({ where: { reference: `settlement:${a.id}` } })).toBe(1);
    const batch = await admin.get(`/api/settlement/batches/${batchId}`);
    expect(batch.body).toMatchObject({ status: 'confirmed', confirmedCents: 80_235 });
    const instruction = await app.db.settlementInstruction.findUniqueOrThrow({ where: { id: a.id } });
    expect(instruction).toMatchObject({ status: 'DISBURSED', railReference: traceNumber });

    const ret = {
      transactionId: uid('btx'),
      railReference: traceNumber,
      instructionId: a.id,
      amountCents: 12_345,
      returnCode: 'R01',
    };
    expect((await bank(app, tenant.clinicId, 'banking.transaction.returned', ret)).outcome).toBe('applied');
    expect(
      (await bank(app, tenant.clinicId, 'banking.transaction.returned', { ...ret, transactionId: uid('btx') })).outcome,
    ).toBe('recorded');
    expect(await app.db.settlementPool.findUniqueOrThrow({ where: { id: a.poolId } })).toMatchObject({
      availableCents: 1_000_000n,
    });
    expect(await app.db.settlementInstruction.findUniqueOrThrow({ where: { id: a.id } })).toMatchObject({
      status: 'RETURNED',
    });
    const reversals = await app.db.ledgerTransaction.findMany({
      where: { clinicId: tenant.clinicId, kind: 'settlement.return' },
      include: { entries: true },
    });
    expect(reversals).toHaveLength(1);
    expect(reversals[0]!.entries.reduce((sum, e) => sum + e.amountCents, 0n)).toBe(0n);
    expect((await admin.get(`/api/settlement/batches/${batchId}`)).body.entries[0]).toMatchObject({
      instructionId: a.id,
      returnCode: 'R01',
    });
    // The other instruction of the batch is untouched by the return.
    expect(await app.db.settlementInstruction.findUniqueOrThrow({ where: { id: b.id } })).toMatchObject({
      status: 'DISBURSED',
    });
  });

  it('raises reconciliation variances in words: a return, and a batch the bank has not confirmed in 2 banking days', async () => {
    const cron = { authorization: `Bearer ${TEST_SECRETS.CRON_SECRET}` };
    const { id } = await signedInstruction(4_321n);
    const created = await admin.post('/api/settlement/batches', { instructionIds: [id] }, { headers: stepUp });
    expect(created.status, created.text).toBe(201);
    await admin.post(`/api/settlement/batches/${created.body.batchId}/release`, undefined, { headers: stepUp });
    // Its effective date long past, as if the bank had sat on it.
    await app.db.payoutBatch.update({ where: { id: created.body.batchId }, data: { effectiveDate: '2026-11-02' } });
    // The earlier test's return, as if the bank had sent it at 22:00 in New York (the clinic's zone), 03:00 UTC the
    // next day: it is a variance of the clinic's earlier day.
    await app.db.payoutEntry.updateMany({
      where: { clinicId: tenant.clinicId, returnedAt: { not: null } },
      data: { returnedAt: new Date('2026-11-20T03:00:00Z') },
    });

    const today = new Date().toISOString().slice(0, 10);
    const run = await new HttpClient(app.url).request('POST', `/api/jobs/reconcile?day=${today}`, { headers: cron });
    expect(run.status, run.text).toBe(200);
    const { variances } = (await admin.get('/api/reconciliation/variances')).body as {
      variances: { kind: string; reference: string; note: string | null; ledgerCents: number }[];
    };
    expect(variances).toContainEqual(
      expect.objectContaining({
        kind: 'payout_unconfirmed',
        reference: created.body.traceNumber,
        ledgerCents: 4_321,
        note: 'The bank has not confirmed this payout batch of 4321 cents 2 banking days after its effective date',
      }),
    );
    expect(variances).toContainEqual(
      expect.objectContaining({
        kind: 'payout_returned',
        day: '2026-11-19',
        ledgerCents: 12_345,
        note: 'The receiving bank returned this payout entry of 12345 cents',
      }),
    );
    expect(JSON.stringify((await other.get('/api/reconciliation/variances')).body)).not.toContain('payout_');

    // The confirmation arrives late: the next run removes the variance.
    await posted(app, tenant.clinicId, created.body.traceNumber, 4_321);
    await new HttpClient(app.url).request('POST', `/api/jobs/reconcile?day=${today}`, { headers: cron });
    const after = (await admin.get('/api/reconciliation/variances')).body.variances as { kind: string }[];
    expect(after.map((v) => v.kind)).not.toContain('payout_unconfirmed');
  });

  it('gives each file of a day its own File ID Modifier and trace numbers', async () => {
    const files: string[] = [];
    for (const residualCents of [1_111n, 2_222n]) {
      const { id } = await signedInstruction(residualCents);
      const created = await admin.post('/api/settlement/batches', { instructionIds: [id] }, { headers: stepUp });
      expect(created.status, created.text).toBe(201);
      await admin.post(`/api/settlement/batches/${created.body.batchId}/release`, undefined, { headers: stepUp });
      const file = await admin.get(`/api/settlement/batches/${created.body.batchId}/file`);
      expect(file.status).toBe(200);
      files.push(file.text);
    }
    const [first, second] = files.map((text) => text.split('\n')[0]!);
    // Header positions 24-29: creation date; 34: File ID Modifier.
    expect(first!.slice(23, 29)).toBe(second!.slice(23, 29));
    expect(first![33]).toMatch(/^[A-Z0-9]$/);
    expect(second![33]).toMatch(/^[A-Z0-9]$/);
    expect(first![33]).not.toBe(second![33]);
    const traces = files.map((text) => text.split('\n')[2]!.slice(79, 94));
    expect(traces[0]).not.toBe(traces[1]);
  });

  it('refuses to release a batch whose effective date has come, withdrawing it so its instruction can be batched again', async () => {
    const { id } = await signedInstruction(3_333n);
    const created = await admin.post('/api/settlement/batches', { instructionIds: [id] }, { headers: stepUp });
    expect(created.status, created.text).toBe(201);
    // As if it had waited unreleased until its effective date.
    await app.db.payoutBatch.update({ where: { id: created.body.batchId }, data: { effectiveDate: '2026-11-02' } });
    // The earlier test's return, as if the bank had sent it at 22:00 in New York (the clinic's zone), 03:00 UTC the
    // next day: it is a variance of the clinic's earlier day.
    await app.db.payoutEntry.updateMany({
      where: { clinicId: tenant.clinicId, returnedAt: { not: null } },
      data: { returnedAt: new Date('2026-11-20T03:00:00Z') },
    });

    const refused = await admin.post(`/api/settlement/batches/${created.body.batchId}/release`, undefined, {
      headers: stepUp,
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 'NOT_EXECUTABLE',
      message:
        "The batch's effective entry date 2026-11-02 has come, so its file would reach the bank stale-dated: the " +
        'batch was withdrawn and its instructions are free; create the batch again',
      correlationId: expect.any(String),
    });
    expect((await admin.get(`/api/settlement/batches/${created.body.batchId}`)).status).toBe(404);
    const again = await admin.post('/api/settlement/batches', { instructionIds: [id] }, { headers: stepUp });
    expect(again.status, again.text).toBe(201);
    const released = await admin.post(`/api/settlement/batches/${again.body.batchId}/release`, undefined, {
      headers: stepUp,
    });
    expect(released.status, released.text).toBe(200);
  });

  it('unverifies the payout account when the bank returns its prenote, which names no instruction', async () => {
    expect(prenoteTrace).not.toBe('');
    const ret = { transactionId: uid('btx'), railReference: prenoteTrace, amountCents: 0, returnCode: 'R03' };
    expect((await bank(app, tenant.clinicId, 'banking.transaction.returned', ret)).outcome).toBe('applied');
    expect(
      (await bank(app, tenant.clinicId, 'banking.transaction.returned', { ...ret, transactionId: uid('btx') })).outcome,
    ).toBe('recorded');
    expect((await admin.get('/api/clinic/payout-account')).body).toMatchObject({
      verified: false,
      prenoteBatchId: null,
    });
    expect(await accountState()).toBe('needs_prenote');
    const { id } = await signedInstruction(1_000n);
    const refused = await admin.post('/api/settlement/batches', { instructionIds: [id] }, { headers: stepUp });
    expect(refused.status).toBe(422);
    expect(refused.body.issues).toEqual([
      {
        path: 'payoutAccount',
        message: 'The payout account is not verified yet: send its prenote first (a batch of no instructions)',
      },
    ]);
  });
});
