// Claims go out through an outbox (DECISIONS "Recurring work", issues 21 item 5, 29 item 5 and 31 item 1), over
// real HTTP, PostgreSQL and a fake CAQH CORE clearinghouse that counts what it receives:
// - no transaction is held across the clearinghouse call: with a pool of 5 connections, 20 claims sent while the
//   clearinghouse holds each for 30 s all succeed, each sent exactly once, and /api/health answers within 1 s;
// - the control number advances only for documents sent;
// - an answer that cannot be read leaves the claim `sending` with its 837P kept, and a second submit sends nothing;
// - POST /api/jobs/claim-sends finishes an interrupted send by asking for its answer, never by sending it again.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createPatient } from '../support/factories';
import { stepUpHeader } from '../support/step-up-claim';
import { clearinghouseEnv, startFakeClearinghouse, type FakeClearinghouse } from '../fakes/fake-clearinghouse';

const NORTH = { orgId: 'org_demo', clinicId: 'clinic_north', clinicName: 'Northside Clinic' };
const uid = () => randomUUID().replaceAll('-', '').slice(0, 12).toUpperCase();
const SERVICE_DATE = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
const ADDRESS = { line: ['10 Elm Street'], city: 'Albany', state: 'NY', postalCode: '12207' };
const anyText = expect.any(String);

/** A patient whose records pass every scrub edit: demographics, address, coverage and a fresh active check. */
async function readyPatient(app: TestApp) {
  const memberId = `DEMO-ACTIVE-${uid()}`;
  const patient = await createPatient(app.db, NORTH, { memberId });
  await app.db.patient.update({ where: { id: patient.id }, data: { gender: 'female', address: ADDRESS } });
  await app.db.eligibilityCheck.create({
    data: {
      clinicId: NORTH.clinicId,
      patientId: patient.id,
      userId: 'test',
      cacheKey: `ck_${uid()}`,
      payerId: '60054',
      memberId,
      serviceType: '30',
      dateOfService: SERVICE_DATE,
      status: 'active',
      eligible: true,
      mode: 'sandbox',
      cacheable: true,
      result: {},
      correlationId: 'test-setup',
    },
  });
  return patient;
}

const claimBody = (patientId: string) => ({
  patientId,
  serviceDate: SERVICE_DATE,
  diagnoses: ['J02.9'],
  lines: [{ procedureCode: '99213', diagnosisPointers: [1], units: 1, chargeCents: 12_500 }],
});

async function startWithClearinghouse(fake: FakeClearinghouse, env: Record<string, string> = {}) {
  return startApp({
    env: {
      ...clearinghouseEnv(fake),
      ...env,
    },
  });
}

const controlCounter = async (app: TestApp) =>
  Number((await app.db.x12ControlCounter.findUnique({ where: { name: '837P' } }))?.value ?? 0);

describe('a clearinghouse that holds every claim for 30 s, with a pool of 5 connections', () => {
  let app: TestApp;
  let fake: FakeClearinghouse;
  beforeAll(async () => {
    fake = await startFakeClearinghouse();
    app = await startWithClearinghouse(fake, { DATABASE_POOL_SIZE: '5' });
  });
  afterAll(async () => {
    await app?.stop();
    await fake?.close();
  });

  it('sends 20 claims exactly once each, keeps /api/health under 1 s, and no request waits for a connection', async () => {
    const billing = await signIn(app, 'billing@northside.test');
    const stepUp = await stepUpHeader(app, 'billing@northside.test');
    const claimIds: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const created = await billing.post('/api/claims', claimBody((await readyPatient(app)).id));
      expect(created.status, created.text).toBe(201);
      claimIds.push(created.body.claimId);
    }
    const counterBefore = await controlCounter(app);
    const submissionsBefore = fake.submissions;
    // Three CORE exchanges a claim (837P, 999, 277CA), each held 10 s: 30 s a claim, within the 15 s per exchange.
    fake.setDelayMs(10_000);
    const started = Date.now();
    const sends = Promise.all(
      claimIds.map((claimId) => billing.post('/api/claims/submit', { claimId }, { headers: stepUp })),
    );

    const health: { status: number; ms: number }[] = [];
    let sawSending = false;
    while (Date.now() - started < 27_000) {
      const t0 = Date.now();
      const res = await new HttpClient(app.url).get('/api/health');
      health.push({ status: res.status, ms: Date.now() - t0 });
      if (!sawSending) {
        const sending = await app.db.claim.count({ where: { id: { in: claimIds }, status: 'sending' } });
        sawSending = sending > 0;
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const results = await sends;
    fake.setDelayMs(0);

    expect(Date.now() - started).toBeGreaterThanOrEqual(29_000); // the hold really held
    expect(health.length).toBeGreaterThanOrEqual(15);
    expect(health.filter((h) => h.status !== 200 || h.ms >= 1_000)).toEqual([]);
    expect(sawSending).toBe(true); // in flight, the claims show `sending`
    expect(results.map((r) => `${r.status} ${r.body.status ?? r.body.code}`)).toEqual(Array(20).fill('200 accepted'));
    expect(fake.submissions - submissionsBefore).toBe(20);
    expect(fake.maxConcurrent).toBeGreaterThan(5); // more sends in flight than connections in the pool
    for (const claimId of claimIds)
      expect(await app.db.claimTransmission.count({ where: { claimId, kind: '837P' } })).toBe(1);
    // One control number per document sent.
    expect((await controlCounter(app)) - counterBefore).toBe(20);
  }, 120_000);
});

describe('claim sends that go wrong, through a live clearinghouse', () => {
  let app: TestApp;
  let fake: FakeClearinghouse;
  let billing: HttpClient;
  let stepUp: Record<string, string>;
  beforeAll(async () => {
    fake = await startFakeClearinghouse();
    app = await startWithClearinghouse(fake);
    billing = await signIn(app, 'billing@northside.test');
    stepUp = await stepUpHeader(app, 'billing@northside.test');
  });
  afterAll(async () => {
    await app?.stop();
    await fake?.close();
  });

  const draft = async () => {
    const res = await billing.post('/api/claims', claimBody((await readyPatient(app)).id));
    expect(res.status, res.text).toBe(201);
    return res.body.claimId as string;
  };
  const submit = (body: unknown) => billing.post('/api/claims/submit', body, { headers: stepUp });
  const transmissions = async (claimId: string) =>
    (await billing.get(`/api/claims/${claimId}/transmissions`)).body.transmissions as {
      direction: string;
      kind: string;
      x12: string;
    }[];
  const runJob = (token = TEST_SECRETS.CRON_SECRET) =>
    new HttpClient(app.url).post('/api/jobs/claim-sends', undefined, {
      headers: { authorization: `Bearer ${token}` },
    });
  /** Makes a send look older than the job's grace period (2 minutes), as after a crash. */
  const age = (claimId: string) =>
    app.db.claimSend.updateMany({ where: { claimId }, data: { createdAt: new Date(Date.now() - 10 * 60_000) } });

  it('an unreadable answer leaves the claim sending with its 837P kept, and a second submit sends nothing', async () => {
    fake.setBehaviour('unreadable-999');
    const claimId = await draft();
    const idempotencyKey = `key-${uid()}`;
    const res = await submit({ claimId, idempotencyKey });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      code: 'TRANSPORT_FAILED',
      message:
        "Sent, but the clearinghouse's answer could not be read; it will not be sent again until a person decides",
      correlationId: anyText,
    });
    const claim = (await billing.get(`/api/claims/${claimId}`)).body;
    expect(claim).toMatchObject({ status: 'sending', statusReason: expect.stringMatching(/^Sent, but/) });
    expect(claim.timeline.map((e: { kind: string }) => e.kind)).toEqual(['created', 'sending', 'answer-unreadable']);
    const kept = await transmissions(claimId);
    expect(kept.map((t) => `${t.direction} ${t.kind}`)).toEqual(['out 837P', 'in 999']);
    expect(kept[0]!.x12).toContain(`CLM*${claimId}*125*`);
    expect(kept[1]!.x12).toContain('AK9*Q*');

    fake.setBehaviour('ok');
    const callsBefore = fake.calls;
    for (const again of [await submit({ claimId }), await submit({ claimId, idempotencyKey: `key-${uid()}` })]) {
      expect(again.status).toBe(422);
      expect(again.body).toEqual({
        code: 'UNPROCESSABLE',
        message:
          'This claim was already sent and its answer is awaited or needs a person; it is not sent again from here',
        correlationId: anyText,
      });
    }
    expect((await submit({ claimId, idempotencyKey })).status).toBe(409); // its key is used
    // Nor does the recovery job send it: it waits for a person.
    await age(claimId);
    const job = await runJob();
    expect(job.status, job.text).toBe(200);
    expect(fake.calls).toBe(callsBefore);
    expect((await billing.get(`/api/claims/${claimId}`)).body.status).toBe('sending');
    expect((await transmissions(claimId)).filter((t) => t.kind === '837P')).toHaveLength(1);
  });

  it.each(['http-500', 'garbage'] as const)(
    'an answer of %s after the 837P left: 502, the claim stays sending, never sent again; the job hands it to a person',
    async (behaviour) => {
      fake.setBehaviour(behaviour);
      const claimId = await draft();
      const idempotencyKey = `key-${uid()}`;
      const res = await submit({ claimId, idempotencyKey });
      expect(res.status).toBe(502);
      expect(res.body).toEqual({
        code: 'TRANSPORT_FAILED',
        message:
          'Sent, but the clearinghouse did not confirm receipt; its answer will be asked for, and the claim will not ' +
          'be sent again until a person decides',
        correlationId: anyText,
      });
      expect((await billing.get(`/api/claims/${claimId}`)).body).toMatchObject({
        status: 'sending',
        statusReason: expect.stringMatching(/^Sent, but the clearinghouse did not confirm receipt/),
      });
      expect(await app.db.claimSend.findFirstOrThrow({ where: { claimId } })).toMatchObject({
        state: 'sending',
        receiptConfirmed: false,
      });

      fake.setBehaviour('ok');
      const submissionsBefore = fake.submissions;
      expect((await submit({ claimId })).status).toBe(422);
      expect((await submit({ claimId, idempotencyKey })).status).toBe(409); // its key is used
      await age(claimId);
      const job = await runJob();
      expect(job.body).toMatchObject({ finished: 0, needsPerson: 1 });
      expect(fake.submissions).toBe(submissionsBefore);
      expect((await transmissions(claimId)).map((t) => `${t.direction} ${t.kind}`)).toEqual(['out 837P']);
    },
  );

  it('a clearinghouse that refuses the envelope (CORE error): 502, a draft again with the key free, the attempted 837P kept', async () => {
    fake.setBehaviour('refuse');
    const claimId = await draft();
    const idempotencyKey = `key-${uid()}`;
    const res = await submit({ claimId, idempotencyKey });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      code: 'TRANSPORT_FAILED',
      message: 'The clearinghouse could not be reached; try again later',
      correlationId: anyText,
    });
    const claim = (await billing.get(`/api/claims/${claimId}`)).body;
    expect(claim).toMatchObject({ status: 'draft', payerId: null, memberId: null, idempotencyKey: null });
    expect((await transmissions(claimId)).map((t) => `${t.direction} ${t.kind}`)).toEqual(['out 837P']);
    fake.setBehaviour('ok');
    const retry = await submit({ claimId, idempotencyKey });
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body.status).toBe('accepted');
  });

  it('the recovery job finishes a send whose 999 came late, by retrieving it, never by sending again', async () => {
    fake.setBehaviour('no-999');
    const claimId = await draft();
    const res = await submit({ claimId });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'sending', statusReason: expect.stringMatching(/^Sent; waiting/) });
    const send = await app.db.claimSend.findFirstOrThrow({ where: { claimId } });
    expect(send).toMatchObject({ state: 'sending', receiptConfirmed: true });

    fake.setBehaviour('ok');
    // Too young: a send may still be in flight, so the job leaves it alone.
    const young = await runJob();
    expect(young.status, young.text).toBe(200);
    expect((await billing.get(`/api/claims/${claimId}`)).body.status).toBe('sending');

    await age(claimId);
    const submissionsBefore = fake.submissions;
    const receivedBefore = fake.received.length;
    const job = await runJob();
    expect(job.status, job.text).toBe(200);
    expect(job.body).toMatchObject({ finished: 1, needsPerson: 0, unreadable: 0, correlationId: anyText });
    expect(fake.submissions).toBe(submissionsBefore);
    const asked = fake.received.slice(receivedBefore);
    expect(asked.map((e) => e.fields.PayloadType)).toEqual([
      'X12_999_RetrievalRequest_005010X231A1',
      'X12_005010_Request_Batch_Results_277CA',
    ]);
    // It asked about that exact submission: the PayloadID the 837P went under, recorded before the send.
    expect(asked.every((e) => e.fields.Payload === send.submissionId)).toBe(true);
    const claim = (await billing.get(`/api/claims/${claimId}`)).body;
    expect(claim.status).toBe('accepted');
    expect((await transmissions(claimId)).map((t) => `${t.direction} ${t.kind}`)).toEqual([
      'out 837P',
      'in 999',
      'in 277CA',
    ]);
    // Run again: nothing left to do.
    expect((await runJob()).body).toMatchObject({ checked: 0 });
  });

  it('the recovery job marks a send the clearinghouse never saw for a person, and sends nothing', async () => {
    fake.setBehaviour('no-999');
    const claimId = await draft();
    expect((await submit({ claimId })).body.status).toBe('sending');
    // As after a crash before the 837P left: the clearinghouse has nothing under the recorded submission.
    await app.db.claimSend.updateMany({
      where: { claimId },
      data: { submissionId: randomUUID(), receiptConfirmed: false },
    });
    await age(claimId);
    fake.setBehaviour('ok');
    const submissionsBefore = fake.submissions;
    const job = await runJob();
    expect(job.status, job.text).toBe(200);
    expect(job.body).toMatchObject({ finished: 0, needsPerson: 1 });
    expect(fake.submissions).toBe(submissionsBefore);
    const claim = (await billing.get(`/api/claims/${claimId}`)).body;
    expect(claim).toMatchObject({
      status: 'sending',
      statusReason: 'The clearinghouse has no answer for this send; it will not be sent again until a person decides',
    });
    expect(claim.timeline.at(-1).kind).toBe('send-unconfirmed');
    expect(await app.db.claimSend.count({ where: { claimId, state: 'needs_person' } })).toBe(1);
  });

  it('the recovery route needs the cron secret', async () => {
    for (const res of [await runJob('wrong'), await new HttpClient(app.url).post('/api/jobs/claim-sends')]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHENTICATED');
    }
  });
});
