// Settlement over real HTTP and PostgreSQL: DRAFT with its waterfall, signing, the encounter gate and the
// console's execute (exactly one disbursement under a 50-way race, 422/409 as SPEC says, ledger posting),
// tenancy, scopes, step-up, and SVC_HALT refusing every money route with nothing written.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '@/lib/webhooks/verify-signature';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { stepUpHeader } from '../support/step-up-claim';
import { HttpClient, signIn } from '../support/http';

const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;

async function newPool(
  app: TestApp,
  availableCents = 1_000_000n,
  options: { clinicId?: string; status?: string } = {},
) {
  const id = uid('pool');
  await app.db.settlementPool.create({
    data: { id, clinicId: options.clinicId ?? 'clinic_north', availableCents, status: options.status ?? 'active' },
  });
  return id;
}

const error = (code: string, message: string) => ({ code, message, correlationId: expect.any(String) });

describe('settlement instructions', () => {
  let app: TestApp;
  let billing: HttpClient;
  let stepUp: Record<string, string>;
  let south: HttpClient;
  let southStepUp: Record<string, string>;
  beforeAll(async () => {
    app = await startApp();
    billing = await signIn(app, 'billing@northside.test');
    stepUp = await stepUpHeader(app, 'billing@northside.test');
    south = await signIn(app, 'admin@southside.test');
    southStepUp = await stepUpHeader(app, 'admin@southside.test');
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function draft(body: Record<string, unknown>, client = billing) {
    const res = await client.post('/api/settlement/instructions', { feeBps: 250, reserveBps: 1000, ...body });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }
  async function signed(body: Record<string, unknown>) {
    const created = await draft(body);
    const res = await billing.post(`/api/settlement/instructions/${created.instructionId}/sign`, undefined, {
      headers: stepUp,
    });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }
  const execute = (id: string, client = billing, headers = stepUp, railReference = 'ACH-TRACE-0001') =>
    client.post(`/api/settlement/console/${id}/execute`, { railReference }, { headers });

  it("lists the clinic's own pools and newest instructions for the console, never another clinic's", async () => {
    const pool = await newPool(app);
    const created = await draft({ poolId: pool, advanceAmountCents: 10_000 });
    const southPool = await newPool(app, 5_000n, { clinicId: 'clinic_south' });

    const res = await billing.get('/api/settlement/overview');
    expect(res.status, res.text).toBe(200);
    expect(res.body.pools).toContainEqual({ poolId: pool, availableCents: 1_000_000, status: 'active' });
    expect(res.body.pools.map((p: { poolId: string }) => p.poolId)).not.toContain(southPool);
    expect(res.body.instructions[0]).toMatchObject({ instructionId: created.instructionId, status: 'DRAFT' });

    const theirs = await south.get('/api/settlement/overview');
    expect(theirs.body.pools.map((p: { poolId: string }) => p.poolId)).toContain(southPool);
    expect(JSON.stringify(theirs.body)).not.toContain(created.instructionId);
  });

  describe('create, read and sign', () => {
    it('creates a DRAFT whose waterfall splits the advance exactly, with a 24 h expiry', async () => {
      const poolId = await newPool(app, 1_000_000n);
      const res = await billing.post('/api/settlement/instructions', {
        poolId,
        encounterId: 'enc_1',
        advanceAmountCents: 100_001,
        feeBps: 250,
        reserveBps: 1000,
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        instructionId: expect.stringMatching(/^ins_[0-9a-f]{32}$/),
        status: 'DRAFT',
        poolId,
        encounterId: 'enc_1',
        advanceAmountCents: 100_001,
        availableCents: 1_000_000,
        paidAmountCents: 0,
        feeBps: 250,
        reserveBps: 1000,
        // 2500.025 / 10000.1 / 87500.875: the one leftover cent goes to the largest remainder (residual).
        waterfall: { poolCents: 100_001, feeCents: 2_500, reserveCents: 10_000, residualCents: 87_501 },
        railReference: null,
        createdBy: 'user_billing_north',
        signedBy: null,
        createdAt: expect.any(String),
        signedAt: null,
        disbursedAt: null,
        expiresAt: expect.any(String),
      });
      expect(Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt)).toBe(24 * 3600_000);
      expect(await app.db.settlementInstruction.findUnique({ where: { id: res.body.instructionId } })).toMatchObject({
        clinicId: 'clinic_north',
        status: 'DRAFT',
        poolCents: 100_001n,
        feeCents: 2_500n,
        reserveCents: 10_000n,
        residualCents: 87_501n,
      });
      const read = await billing.get(`/api/settlement/instructions/${res.body.instructionId}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(res.body);
    });

    it.each([
      ['fee and reserve above 100%', { feeBps: 6000, reserveBps: 4001 }, 'body.reserveBps'],
      ['a negative advance', { advanceAmountCents: -1 }, 'body.advanceAmountCents'],
      ['a fractional advance', { advanceAmountCents: 10.5 }, 'body.advanceAmountCents'],
      ['negative basis points', { feeBps: -1 }, 'body.feeBps'],
    ])('refuses %s with 400', async (_label, change, path) => {
      const poolId = await newPool(app);
      const res = await billing.post('/api/settlement/instructions', {
        poolId,
        advanceAmountCents: 1000,
        feeBps: 100,
        reserveBps: 100,
        ...change,
      });
      expect(res.status).toBe(400);
      expect(res.body.issues.map((i: { path: string }) => i.path)).toEqual([path]);
      expect(await app.db.settlementInstruction.count({ where: { poolId } })).toBe(0);
    });

    it("refuses another clinic's pool or an unknown pool with 404", async () => {
      for (const poolId of ['pool_s_001', 'pool_nope']) {
        const res = await billing.post('/api/settlement/instructions', {
          poolId,
          advanceAmountCents: 1000,
          feeBps: 0,
          reserveBps: 0,
        });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(error('NOT_FOUND', 'No such settlement pool'));
      }
      expect(await app.db.settlementInstruction.count({ where: { poolId: 'pool_s_001' } })).toBe(0);
    });

    it('signs a DRAFT once under step-up; signing again is 409', async () => {
      const created = await draft({ poolId: await newPool(app), advanceAmountCents: 5_000 });
      const path = `/api/settlement/instructions/${created.instructionId}/sign`;
      const noStepUp = await billing.post(path);
      expect(noStepUp.status).toBe(401);
      expect(noStepUp.body).toEqual(error('STEP_UP_REQUIRED', 'Confirm it is you to continue'));
      expect(noStepUp.headers.get('www-authenticate')).toContain('insufficient_user_authentication');
      const res = await billing.post(path, undefined, { headers: stepUp });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        instructionId: created.instructionId,
        status: 'SIGNED',
        signedBy: 'user_billing_north',
        signedAt: expect.any(String),
      });
      const again = await billing.post(path, undefined, { headers: stepUp });
      expect(again.status).toBe(409);
      expect(again.body).toEqual(
        error('NOT_EXECUTABLE', 'Only an unexpired DRAFT instruction can be signed; this one is SIGNED'),
      );
    });

    it("hides another clinic's instruction: read, sign and execute are 404 and change nothing", async () => {
      const created = await draft({ poolId: await newPool(app), advanceAmountCents: 5_000 });
      const id = created.instructionId;
      expect((await south.get(`/api/settlement/instructions/${id}`)).body).toEqual(
        error('NOT_FOUND', 'No such settlement instruction'),
      );
      expect(
        (await south.post(`/api/settlement/instructions/${id}/sign`, undefined, { headers: southStepUp })).status,
      ).toBe(404);
      await billing.post(`/api/settlement/instructions/${id}/sign`, undefined, { headers: stepUp });
      const foreign = await execute(id, south, southStepUp);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(error('NOT_FOUND', 'No such settlement instruction'));
      expect(await app.db.settlementInstruction.findUnique({ where: { id } })).toMatchObject({
        status: 'SIGNED',
        paidAmountCents: 0n,
      });
    });

    it('refuses unauthenticated callers and callers without the svcpay scopes', async () => {
      const anonymous = new HttpClient(app.url);
      for (const [method, path] of [
        ['POST', '/api/settlement/instructions'],
        ['GET', '/api/settlement/instructions/ins_x'],
        ['POST', '/api/settlement/instructions/ins_x/sign'],
        ['POST', '/api/settlement/gate/enc_x'],
        ['POST', '/api/settlement/console/ins_x/execute'],
        ['GET', '/api/bills/bill_n_001'],
        ['GET', '/api/reconciliation/variances'],
      ] as const) {
        const res = await anonymous.request(method, path, method === 'POST' ? { json: {} } : {});
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.body).toEqual(error('UNAUTHENTICATED', 'Sign in to continue'));
      }
      const frontdesk = await signIn(app, 'frontdesk@northside.test');
      const write = await frontdesk.post('/api/settlement/instructions', {
        poolId: 'pool_n_001',
        advanceAmountCents: 1,
        feeBps: 0,
        reserveBps: 0,
      });
      expect(write.body).toEqual(error('SCOPE_MISSING', 'This action needs the svcpay:write scope'));
      const read = await frontdesk.get('/api/settlement/instructions/ins_x');
      expect(read.body).toEqual(error('SCOPE_MISSING', 'This action needs the svcpay:read scope'));
    });
  });

  describe('execute', () => {
    it('disburses a SIGNED instruction: DISBURSED, pool reduced, one balanced ledger posting', async () => {
      const poolId = await newPool(app, 1_000_000n);
      const ins = await signed({ poolId, advanceAmountCents: 100_001 });
      const res = await execute(ins.instructionId);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...ins,
        status: 'DISBURSED',
        paidAmountCents: 100_001,
        availableCents: 899_999,
        railReference: 'ACH-TRACE-0001',
        disbursedAt: expect.any(String),
      });
      expect((await app.db.settlementPool.findUniqueOrThrow({ where: { id: poolId } })).availableCents).toBe(899_999n);
      const postings = await app.db.ledgerTransaction.findMany({
        where: { reference: `settlement:${ins.instructionId}` },
        include: { entries: true },
      });
      expect(postings).toHaveLength(1);
      expect(postings[0]!.kind).toBe('settlement.disbursement');
      expect(postings[0]!.entries.map((e) => [e.account, Number(e.amountCents)]).sort()).toEqual([
        ['assets:fbo', -87_501],
        ['assets:settlement-advances', 100_001],
        ['liabilities:reserve', -10_000],
        ['revenue:platform-fees', -2_500],
      ]);
      const again = await execute(ins.instructionId);
      expect(again.status).toBe(409);
      expect(again.body).toEqual(error('NOT_EXECUTABLE', 'The instruction is DISBURSED and cannot be executed'));
    });

    it('disburses exactly once when 50 executes race', async () => {
      const poolId = await newPool(app, 1_000_000n);
      const ins = await signed({ poolId, advanceAmountCents: 10_000 });
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => execute(ins.instructionId, billing, stepUp, `RACE-${i}`)),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(49).fill(409)]);
      for (const r of results.filter((x) => x.status === 409))
        expect(r.body).toEqual(error('NOT_EXECUTABLE', 'The instruction is DISBURSED and cannot be executed'));
      const winner = results.find((r) => r.status === 200)!;
      const row = await app.db.settlementInstruction.findUniqueOrThrow({ where: { id: ins.instructionId } });
      expect(row).toMatchObject({
        status: 'DISBURSED',
        paidAmountCents: 10_000n,
        railReference: winner.body.railReference,
      });
      expect((await app.db.settlementPool.findUniqueOrThrow({ where: { id: poolId } })).availableCents).toBe(990_000n);
      expect(await app.db.ledgerTransaction.count({ where: { reference: `settlement:${ins.instructionId}` } })).toBe(1);
    });

    it('never overdraws a pool when two instructions race for the same funds', async () => {
      const poolId = await newPool(app, 1_000n);
      const a = await signed({ poolId, advanceAmountCents: 600 });
      const b = await signed({ poolId, advanceAmountCents: 600 });
      const results = await Promise.all([execute(a.instructionId), execute(b.instructionId)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)!.body).toEqual(
        error('NOT_EXECUTABLE', 'The settlement pool does not hold the advance'),
      );
      expect((await app.db.settlementPool.findUniqueOrThrow({ where: { id: poolId } })).availableCents).toBe(400n);
      expect(await app.db.settlementInstruction.count({ where: { poolId, status: 'DISBURSED' } })).toBe(1);
    });

    it('refuses an unsigned DRAFT with 422 UNPROCESSABLE and writes nothing', async () => {
      const poolId = await newPool(app);
      const created = await draft({ poolId, advanceAmountCents: 5_000 });
      const res = await execute(created.instructionId);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(error('UNPROCESSABLE', 'The instruction is not signed'));
      expect(await app.db.settlementInstruction.findUnique({ where: { id: created.instructionId } })).toMatchObject({
        status: 'DRAFT',
        paidAmountCents: 0n,
      });
      expect((await app.db.settlementPool.findUniqueOrThrow({ where: { id: poolId } })).availableCents).toBe(
        1_000_000n,
      );
    });

    it.each([
      [
        'CANCELLED',
        async (app: TestApp, id: string) => {
          await app.db.settlementInstruction.update({ where: { id }, data: { status: 'CANCELLED' } });
        },
        'The instruction is CANCELLED and cannot be executed',
      ],
      [
        'EXPIRED (status)',
        async (app: TestApp, id: string) => {
          await app.db.settlementInstruction.update({ where: { id }, data: { status: 'EXPIRED' } });
        },
        'The instruction is EXPIRED and cannot be executed',
      ],
      [
        'past its expiresAt',
        async (app: TestApp, id: string) => {
          await app.db.settlementInstruction.update({
            where: { id },
            data: { expiresAt: new Date(Date.now() - 1000) },
          });
        },
        'The instruction is EXPIRED and cannot be executed',
      ],
      [
        'with a non-positive advance',
        async (app: TestApp, id: string) => {
          await app.db.settlementInstruction.update({ where: { id }, data: { advanceAmountCents: 0n } });
        },
        'The instruction has no positive advance to disburse',
      ],
      [
        'on an inactive pool',
        async (app: TestApp, id: string) => {
          const { poolId } = await app.db.settlementInstruction.findUniqueOrThrow({ where: { id } });
          await app.db.settlementPool.update({ where: { id: poolId }, data: { status: 'frozen' } });
        },
        'The settlement pool is not active',
      ],
      [
        'on a pool that does not hold the advance',
        async (app: TestApp, id: string) => {
          const { poolId } = await app.db.settlementInstruction.findUniqueOrThrow({ where: { id } });
          await app.db.settlementPool.update({ where: { id: poolId }, data: { availableCents: 4_999n } });
        },
        'The settlement pool does not hold the advance',
      ],
    ])('refuses an instruction %s with 409 NOT_EXECUTABLE and writes nothing', async (_label, arrange, message) => {
      const poolId = await newPool(app);
      const ins = await signed({ poolId, advanceAmountCents: 5_000 });
      await arrange(app, ins.instructionId);
      const before = await app.db.settlementPool.findUniqueOrThrow({ where: { id: poolId } });
      const res = await execute(ins.instructionId);
      expect(res.status).toBe(409);
      expect(res.body).toEqual(error('NOT_EXECUTABLE', message));
      expect(await app.db.settlementPool.findUniqueOrThrow({ where: { id: poolId } })).toEqual(before);
      expect(await app.db.ledgerTransaction.count({ where: { reference: `settlement:${ins.instructionId}` } })).toBe(0);
      expect(
        (await app.db.settlementInstruction.findUniqueOrThrow({ where: { id: ins.instructionId } })).disbursedAt,
      ).toBeNull();
    });

    it('shows a SIGNED instruction past its expiry as EXPIRED', async () => {
      const ins = await signed({ poolId: await newPool(app), advanceAmountCents: 5_000 });
      await app.db.settlementInstruction.update({
        where: { id: ins.instructionId },
        data: { expiresAt: new Date(Date.now() - 1000) },
      });
      expect((await billing.get(`/api/settlement/instructions/${ins.instructionId}`)).body.status).toBe('EXPIRED');
    });

    it('requires step-up and railReference', async () => {
      const ins = await signed({ poolId: await newPool(app), advanceAmountCents: 5_000 });
      const none = await billing.post(`/api/settlement/console/${ins.instructionId}/execute`, { railReference: 'R' });
      expect(none.status).toBe(401);
      expect(none.body).toEqual(error('STEP_UP_REQUIRED', 'Confirm it is you to continue'));
      const missing = await billing.post(
        `/api/settlement/console/${ins.instructionId}/execute`,
        {},
        { headers: stepUp },
      );
      expect(missing.status).toBe(400);
      expect(missing.body.issues).toEqual([{ path: 'body.railReference', message: expect.any(String) }]);
      expect((await app.db.settlementInstruction.findUniqueOrThrow({ where: { id: ins.instructionId } })).status).toBe(
        'SIGNED',
      );
    });
  });

  describe('gate', () => {
    it('holds an instruction naming an encounter until that encounter is cleared in the same clinic', async () => {
      const encounterId = uid('enc');
      const ins = await signed({ poolId: await newPool(app), encounterId, advanceAmountCents: 5_000 });
      const blocked = await execute(ins.instructionId);
      expect(blocked.status).toBe(409);
      expect(blocked.body).toEqual(
        error('NOT_EXECUTABLE', 'The encounter has not been cleared at the settlement gate'),
      );

      // Southside clearing the same encounter id clears nothing for Northside.
      const southGate = await south.post(`/api/settlement/gate/${encounterId}`, undefined, { headers: southStepUp });
      expect(southGate.status).toBe(200);
      expect((await execute(ins.instructionId)).status).toBe(409);

      const noStepUp = await billing.post(`/api/settlement/gate/${encounterId}`);
      expect(noStepUp.status).toBe(401);
      expect(noStepUp.body.code).toBe('STEP_UP_REQUIRED');
      const correlationId = uid('corr-gate');
      const gate = await billing.post(`/api/settlement/gate/${encounterId}`, undefined, {
        headers: { ...stepUp, 'x-correlation-id': correlationId },
      });
      expect(gate.status).toBe(200);
      expect(gate.body).toEqual({
        encounterId,
        outcome: 'cleared',
        clearedBy: 'user_billing_north',
        clearedAt: expect.any(String),
        correlationId,
      });
      const repeat = await billing.post(`/api/settlement/gate/${encounterId}`, undefined, { headers: stepUp });
      expect(repeat.body).toEqual(gate.body);
      expect(await app.db.settlementGate.count({ where: { encounterId } })).toBe(2);

      expect((await execute(ins.instructionId)).status).toBe(200);
    });
  });
});

describe('SVC_HALT=1', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ env: { SVC_HALT: '1' } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('refuses every money route with 503 and writes nothing; reads still work', async () => {
    const admin = await signIn(app, 'admin@northside.test');
    const headers = await stepUpHeader(app, 'admin@northside.test');
    await app.db.settlementInstruction.create({
      data: {
        id: 'ins_halt',
        clinicId: 'clinic_north',
        poolId: 'pool_n_001',
        status: 'SIGNED',
        advanceAmountCents: 1_000n,
        feeBps: 0,
        reserveBps: 0,
        poolCents: 1_000n,
        feeCents: 0n,
        reserveCents: 0n,
        residualCents: 1_000n,
        createdBy: 'x',
        expiresAt: new Date(Date.now() + 3600_000),
        correlationId: 'setup',
      },
    });
    const halted = error('DEPENDENCY_UNAVAILABLE', 'Money movement is halted');
    const calls = [
      admin.post('/api/settlement/console/ins_halt/execute', { railReference: 'R' }, { headers }),
      admin.post('/api/settlement/gate/enc_halt', undefined, { headers }),
      admin.post('/api/settlement/instructions', {
        poolId: 'pool_n_001',
        advanceAmountCents: 1,
        feeBps: 0,
        reserveBps: 0,
      }),
      admin.post(
        '/api/claims/submit',
        { patientId: 'pat_n_001', totalCharge: 1, serviceDate: '2026-11-20' },
        { headers },
      ),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(503);
      expect(res.body).toEqual(halted);
    }
    const raw = JSON.stringify({
      id: 'evt_halt',
      type: 'payment.succeeded',
      createdAt: new Date().toISOString(),
      clinicId: 'clinic_north',
      data: { paymentId: 'pay_halt', billId: 'bill_n_001', amountCents: 12_500, currency: 'USD' },
    });
    const webhook = await new HttpClient(app.url).request('POST', '/api/webhooks/payment', {
      body: raw,
      headers: {
        'content-type': 'application/json',
        'x-svc-delivery': 'dlv_halt',
        'x-svc-signature': signBody(Buffer.from(raw), TEST_SECRETS.WEBHOOK_SECRET_PAYMENT),
      },
    });
    expect(webhook.status).toBe(503);
    expect(webhook.body).toEqual(halted);

    expect(await app.db.settlementInstruction.findUniqueOrThrow({ where: { id: 'ins_halt' } })).toMatchObject({
      status: 'SIGNED',
      paidAmountCents: 0n,
    });
    expect((await app.db.settlementPool.findUniqueOrThrow({ where: { id: 'pool_n_001' } })).availableCents).toBe(
      1_000_000n,
    );
    expect(await app.db.settlementInstruction.count()).toBe(1);
    expect(await app.db.settlementGate.count()).toBe(0);
    expect(await app.db.claim.count()).toBe(0);
    expect(await app.db.webhookDelivery.count()).toBe(0);
    expect(await app.db.ledgerTransaction.count()).toBe(0);
    expect((await admin.get('/api/settlement/instructions/ins_halt')).status).toBe(200);
  });
});
