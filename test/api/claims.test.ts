// Claims over real HTTP and PostgreSQL: inline-create from dollars (exact cents), submitting a draft, the
// eligibility precondition, single-use idempotency keys under a 50-way race, step-up, scopes and tenancy, and
// the clinic's list (newest first, at most 100). A claim now carries lines and diagnoses and is sent through the
// sandbox clearinghouse (DECISIONS "Claims out"): test/api/claims-out.test.ts covers that part.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { stepUpHeader } from '../support/step-up-claim';
import { HttpClient, signIn } from '../support/http';
import { createPatient, createTenant, createUser } from '../support/factories';

const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;

type CheckOptions = { status?: string; ageHours?: number; memberId?: string | null; payerId?: string };

/** An eligibility check row as verify records it; by default of the patient's coverage on file. */
async function recordEligibility(app: TestApp, clinicId: string, patientId: string, options: CheckOptions = {}) {
  const status = options.status ?? 'active';
  const patient = await app.db.patient.findUniqueOrThrow({ where: { id: patientId } });
  await app.db.eligibilityCheck.create({
    data: {
      clinicId,
      patientId,
      userId: 'test',
      cacheKey: uid('ck'),
      payerId: options.payerId ?? patient.coveragePayerId ?? '60054',
      memberId: options.memberId === undefined ? patient.coverageMemberId : options.memberId,
      serviceType: '30',
      dateOfService: '2026-11-22',
      status,
      eligible: status === 'active',
      mode: 'sandbox',
      cacheable: true,
      result: {},
      correlationId: 'test-setup',
      createdAt: new Date(Date.now() - (options.ageHours ?? 0) * 3600_000),
    },
  });
}

/** The demographics the scrubber needs, which the factory's patients lack. */
async function completeDemographics(app: TestApp, patientId: string) {
  await app.db.patient.update({
    where: { id: patientId },
    data: { gender: 'female', address: { line: ['10 Elm Street'], city: 'Albany', state: 'NY', postalCode: '12207' } },
  });
}

/** A fresh Northside patient with an active eligibility check from just now. */
async function eligiblePatient(app: TestApp): Promise<string> {
  const patient = await createPatient(app.db, {
    orgId: 'org_demo',
    clinicId: 'clinic_north',
    clinicName: 'Northside Clinic',
  });
  await completeDemographics(app, patient.id);
  await recordEligibility(app, 'clinic_north', patient.id);
  return patient.id;
}

/** One office visit line for the whole charge, so the lines' sum equals totalCharge. */
const content = (chargeCents: number) => ({
  diagnoses: ['J02.9'],
  lines: [{ procedureCode: '99213', diagnosisPointers: [1], units: 1, chargeCents }],
});

const NEEDS_ELIGIBILITY = {
  code: 'SCRUB_BLOCKED',
  message: 'The claim did not pass the scrubber; nothing was sent',
  correlationId: expect.any(String),
  issues: [
    {
      path: 'coverage',
      message: "An active eligibility check of the patient's coverage on file within the last 24 hours is required",
      edit: 'eligibility-verified',
    },
  ],
};

const claimRows = (app: TestApp, where: { idempotencyKey?: string; patientId?: string }) =>
  app.db.claim.count({ where });

describe('POST /api/claims/submit', () => {
  let app: TestApp;
  let billing: HttpClient;
  let stepUp: Record<string, string>;
  beforeAll(async () => {
    app = await startApp();
    billing = await signIn(app, 'billing@northside.test');
    stepUp = await stepUpHeader(app, 'billing@northside.test');
  });
  afterAll(async () => {
    await app?.stop();
  });

  const submit = (body: unknown, headers: Record<string, string> = {}, client = billing) =>
    client.post('/api/claims/submit', body, { headers: { ...stepUp, ...headers } });

  it('creates and submits a claim from dollars, stores exact cents and echoes the correlation id', async () => {
    const patientId = await eligiblePatient(app);
    const idempotencyKey = uid('key');
    const correlationId = uid('corr-claims');
    const res = await submit(
      { patientId, totalCharge: 125.5, serviceDate: '2026-11-20', idempotencyKey, ...content(12_550) },
      { 'x-correlation-id': correlationId },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      claimId: expect.stringMatching(/^clm_[0-9a-f]{16}$/),
      patientId,
      // The factory's patient, named (issue 28: billing sees people, not ids).
      patientName: expect.stringMatching(/^Test Patient/),
      patientBirthDate: '1980-01-02',
      // Sent: the sandbox clearinghouse's 999 and 277CA accepted it.
      status: 'accepted',
      totalChargeCents: 12_550,
      paidCents: 0,
      patientResponsibilityCents: 0,
      adjustmentCents: 0,
      writtenOffCents: 0,
      // Nothing paid, adjusted or written off yet: the whole charge is open.
      balanceCents: 12_550,
      nextAction: null,
      nextActionReason: null,
      serviceDate: '2026-11-20',
      placeOfService: '11',
      diagnoses: ['J02.9'],
      lines: [
        {
          position: 1,
          procedureCode: '99213',
          modifiers: [],
          diagnosisPointers: [1],
          units: 1,
          chargeCents: 12_550,
          serviceDate: null,
          paidCents: 0,
        },
      ],
      renderingNpi: null,
      payerId: '60054',
      payerName: 'Aetna',
      memberId: expect.any(String),
      statusReason: null,
      idempotencyKey,
      submittedAt: expect.any(String),
      createdAt: expect.any(String),
      frequency: '1',
      replacesClaimId: null,
      payerRank: 'primary',
      primaryClaimId: null,
      payerClaimId: expect.stringMatching(/^SBXPCN/),
      correlationId,
    });
    expect(res.headers.get('x-correlation-id')).toBe(correlationId);
    expect(await app.db.claim.findUnique({ where: { id: res.body.claimId } })).toMatchObject({
      clinicId: 'clinic_north',
      patientId,
      totalChargeCents: 12_550n,
      status: 'accepted',
      idempotencyKey,
      correlationId,
    });
  });

  it.each([
    [0.29, 29],
    ['0.29', 29],
    [19.99, 1_999],
    ['1500.10', 150_010],
    [1500.1, 150_010],
    [10, 1_000],
    // The claim cap (DECISIONS "Security findings of 2026-11-28"): $999,999.99.
    ['999999.99', 99_999_999],
    [999_999.99, 99_999_999],
  ])('converts totalCharge %j to %i cents exactly', async (totalCharge, cents) => {
    const patientId = await eligiblePatient(app);
    const res = await submit({ patientId, totalCharge, serviceDate: '2026-11-20', ...content(cents) });
    expect(res.status).toBe(200);
    expect(res.body.totalChargeCents).toBe(cents);
    expect((await app.db.claim.findUniqueOrThrow({ where: { id: res.body.claimId } })).totalChargeCents).toBe(
      BigInt(cents),
    );
  });

  it.each([
    [0.005, 'totalCharge must be a non-negative dollar amount with at most 2 decimal places'],
    [-1, 'totalCharge must be a non-negative dollar amount with at most 2 decimal places'],
    ['1e3', 'totalCharge must be a non-negative dollar amount with at most 2 decimal places'],
    ['12.345', 'totalCharge must be a non-negative dollar amount with at most 2 decimal places'],
    [0.1 + 0.2, 'totalCharge must be a non-negative dollar amount with at most 2 decimal places'],
    [0, 'totalCharge must be more than zero'],
    ['1000000.00', 'totalCharge must be at most 999999.99 dollars'],
    ['9999999999999.99', 'totalCharge must be at most 999999.99 dollars'],
  ])('refuses totalCharge %j with 400 and creates nothing', async (totalCharge, message) => {
    const patientId = await eligiblePatient(app);
    const res = await submit({ patientId, totalCharge, serviceDate: '2026-11-20' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The request body is not valid',
      correlationId: expect.any(String),
      issues: [{ path: 'body.totalCharge', message }],
    });
    expect(await claimRows(app, { patientId })).toBe(0);
  });

  it('accepts a claim once the real eligibility route has verified the patient', async () => {
    const admin = await signIn(app, 'admin@northside.test');
    const verify = await admin.post('/api/eligibility/verify', {
      patientId: 'pat_n_008',
      firstName: 'Harper',
      lastName: 'Northside008',
      dob: '1978-09-18',
      memberId: 'DEMO-ACTIVE-N008',
      payerName: 'Aetna',
      npi: '1234567893',
    });
    expect(verify.status, verify.text).toBe(200);
    expect(verify.body).toMatchObject({ eligible: true, status: 'active' });
    const res = await admin.post(
      '/api/claims/submit',
      { patientId: 'pat_n_008', totalCharge: '250.00', serviceDate: '2026-11-20', ...content(25_000) },
      { headers: await stepUpHeader(app, 'admin@northside.test') },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ patientId: 'pat_n_008', status: 'accepted', totalChargeCents: 25_000 });
  });

  it('accepts only a check of the coverage on file as it is at submit time: a mismatch does not count, a coverage change voids a match', async () => {
    const admin = await signIn(app, 'admin@northside.test');
    const adminStepUp = await stepUpHeader(app, 'admin@northside.test');
    const patient = await createPatient(
      app.db,
      { orgId: 'org_demo', clinicId: 'clinic_north', clinicName: 'Northside Clinic' },
      { memberId: 'DEMO-ACTIVE-F1' },
    );
    await completeDemographics(app, patient.id);
    const verify = async (memberId: string) => {
      const res = await admin.post('/api/eligibility/verify', {
        patientId: patient.id,
        firstName: patient.firstName,
        lastName: patient.lastName,
        dob: patient.birthDate,
        memberId,
        payerName: 'Aetna',
        npi: '1234567893',
      });
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    // Each claim its own charge: the same lines twice would be a duplicate claim (a scrub edit of its own).
    let cents = 8_000;
    const claim = () => {
      cents += 1;
      return admin.post(
        '/api/claims/submit',
        { patientId: patient.id, totalCharge: (cents / 100).toFixed(2), serviceDate: '2026-11-20', ...content(cents) },
        { headers: adminStepUp },
      );
    };
    const setCoverage = async (memberId: string) => {
      const res = await admin.request('PUT', `/api/patients/${patient.id}/coverage`, {
        json: { payerId: '60054', memberId },
      });
      expect(res.status, res.text).toBe(200);
    };

    // An active answer for someone else's member id: reported as a mismatch, and no claim on it.
    expect(await verify('DEMO-ACTIVE-F2')).toMatchObject({ status: 'active', coverageOnFile: 'mismatch' });
    const refused = await claim();
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(NEEDS_ELIGIBILITY);
    // The patient's own member id: a claim goes through.
    expect(await verify('DEMO-ACTIVE-F1')).toMatchObject({ status: 'active', coverageOnFile: 'match' });
    expect((await claim()).status).toBe(200);
    // The coverage on file changes: the earlier check was of the old coverage and no longer counts.
    await setCoverage('DEMO-ACTIVE-F3');
    expect((await claim()).status).toBe(422);
    // Staff confirm the coverage the mismatching check was of: that check now is of the coverage on file.
    await setCoverage('DEMO-ACTIVE-F2');
    expect((await claim()).status).toBe(200);
    expect(await claimRows(app, { patientId: patient.id })).toBe(2);
  });

  it('refuses an incomplete inline claim and a body mixing claimId with inline fields', async () => {
    const missing = await submit({ patientId: 'pat_n_001' });
    expect(missing.status).toBe(400);
    expect(missing.body.issues).toEqual([
      { path: 'body.serviceDate', message: 'serviceDate is required to create a claim' },
      { path: 'body.totalCharge', message: 'totalCharge is required to create a claim' },
    ]);
    const mixed = await submit({ claimId: 'clm_x', patientId: 'pat_n_001', totalCharge: 1 });
    expect(mixed.status).toBe(400);
    expect(mixed.body.issues).toEqual([
      { path: 'body.patientId', message: 'patientId is not accepted together with claimId' },
      { path: 'body.totalCharge', message: 'totalCharge is not accepted together with claimId' },
    ]);
  });

  it('answers a reused idempotency key with 409 IDEMPOTENCY_KEY_REUSED and creates nothing more', async () => {
    const patientId = await eligiblePatient(app);
    const idempotencyKey = uid('key');
    expect(
      (await submit({ patientId, totalCharge: 10, serviceDate: '2026-11-20', idempotencyKey, ...content(1_000) }))
        .status,
    ).toBe(200);
    const again = await submit({
      patientId,
      totalCharge: 99,
      serviceDate: '2026-11-21',
      idempotencyKey,
      ...content(9_900),
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      code: 'IDEMPOTENCY_KEY_REUSED',
      message: 'This idempotency key was already used; nothing was created',
      correlationId: expect.any(String),
    });
    expect(await claimRows(app, { patientId })).toBe(1);
  });

  it('creates exactly one claim from 50 concurrent submits with one key: 1 success and 49 409s', async () => {
    const patientId = await eligiblePatient(app);
    const idempotencyKey = uid('key');
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        submit({ patientId, totalCharge: '42.00', serviceDate: '2026-11-20', idempotencyKey, ...content(4_200) }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(49).fill(409)]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await claimRows(app, { patientId })).toBe(1);
    expect(await app.db.idempotencyKey.count({ where: { clinicId: 'clinic_north', key: idempotencyKey } })).toBe(1);
    const [claim] = await app.db.claim.findMany({ where: { patientId }, select: { id: true } });
    expect(await app.db.claimTransmission.count({ where: { claimId: claim!.id, kind: '837P' } })).toBe(1);
  });

  it("keeps idempotency keys per clinic: Southside may use Northside's key", async () => {
    const idempotencyKey = uid('key');
    const northPatient = await eligiblePatient(app);
    expect(
      (
        await submit({
          patientId: northPatient,
          totalCharge: 1,
          serviceDate: '2026-11-20',
          idempotencyKey,
          ...content(100),
        })
      ).status,
    ).toBe(200);
    const south = await signIn(app, 'admin@southside.test');
    await recordEligibility(app, 'clinic_south', 'pat_s_007');
    const res = await south.post(
      '/api/claims/submit',
      { patientId: 'pat_s_007', totalCharge: 1, serviceDate: '2026-11-20', idempotencyKey, ...content(100) },
      { headers: await stepUpHeader(app, 'admin@southside.test') },
    );
    expect(res.status).toBe(200);
  });

  it.each([
    ['a patient of another clinic', 'pat_s_001'],
    ['a patient that does not exist', 'pat_nobody'],
  ])('refuses %s with 403 OUT_OF_SCOPE and creates nothing', async (_label, patientId) => {
    await recordEligibility(app, 'clinic_south', 'pat_s_001');
    const idempotencyKey = uid('key');
    const res = await submit({ patientId, totalCharge: 10, serviceDate: '2026-11-20', idempotencyKey });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'OUT_OF_SCOPE',
      message: 'The patient is not enrolled in your clinic',
      correlationId: expect.any(String),
    });
    expect(await claimRows(app, { patientId })).toBe(0);
    expect(await app.db.idempotencyKey.count({ where: { key: idempotencyKey } })).toBe(0);
  });

  it("ignores a clinicId in the body: the claim belongs to the caller's clinic", async () => {
    const patientId = await eligiblePatient(app);
    const res = await submit({
      patientId,
      totalCharge: 10,
      serviceDate: '2026-11-20',
      clinicId: 'clinic_south',
      ...content(1_000),
    });
    expect(res.status).toBe(200);
    expect((await app.db.claim.findUniqueOrThrow({ where: { id: res.body.claimId } })).clinicId).toBe('clinic_north');
  });

  it.each<[string, CheckOptions | null]>([
    ['no eligibility check', null],
    ['only an inactive check', { status: 'inactive' }],
    ['only a check older than 24 hours', { ageHours: 25 }],
    ['only an active check of another member id', { memberId: 'DEMO-ACTIVE-SOMEONE-ELSE' }],
    ['only an active check of another payer', { payerId: '87726' }],
    [
      'only an active check that names no member id (recorded before checks were tied to the patient)',
      { memberId: null },
    ],
  ])('refuses a claim with %s: 422, nothing created, and the key stays unused', async (_label, check) => {
    const patient = await createPatient(app.db, {
      orgId: 'org_demo',
      clinicId: 'clinic_north',
      clinicName: 'Northside Clinic',
    });
    await completeDemographics(app, patient.id);
    if (check) await recordEligibility(app, 'clinic_north', patient.id, check);
    const idempotencyKey = uid('key');
    const body = {
      patientId: patient.id,
      totalCharge: 10,
      serviceDate: '2026-11-20',
      idempotencyKey,
      ...content(1_000),
    };
    const res = await submit(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(NEEDS_ELIGIBILITY);
    expect(await claimRows(app, { patientId: patient.id })).toBe(0);
    await recordEligibility(app, 'clinic_north', patient.id);
    expect((await submit(body)).status).toBe(200);
  });

  it("submits an existing draft once; a second submit is 422 and another clinic's claim is 404", async () => {
    const patientId = await eligiblePatient(app);
    const draft = await billing.post('/api/claims', { patientId, serviceDate: '2026-11-19', ...content(7_700) });
    expect(draft.status).toBe(201);
    const claimId: string = draft.body.claimId;
    const res = await submit({ claimId, idempotencyKey: uid('key') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      claimId,
      patientId,
      status: 'accepted',
      totalChargeCents: 7_700,
      serviceDate: '2026-11-19',
    });
    const again = await submit({ claimId });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({
      code: 'UNPROCESSABLE',
      message: 'Only a draft claim can be submitted; this one already was',
      correlationId: expect.any(String),
    });

    const southClaim = uid('clm');
    await app.db.claim.create({
      data: {
        id: southClaim,
        clinicId: 'clinic_south',
        patientId: 'pat_s_001',
        totalChargeCents: 1n,
        serviceDate: '2026-11-19',
        status: 'draft',
        correlationId: 'setup',
      },
    });
    const foreign = await submit({ claimId: southClaim });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ code: 'NOT_FOUND', message: 'No such claim', correlationId: expect.any(String) });
    expect((await app.db.claim.findUniqueOrThrow({ where: { id: southClaim } })).status).toBe('draft');
  });

  it('refuses a draft whose patient has no recent eligibility', async () => {
    const patient = await createPatient(app.db, {
      orgId: 'org_demo',
      clinicId: 'clinic_north',
      clinicName: 'Northside Clinic',
    });
    const claimId = uid('clm');
    await app.db.claim.create({
      data: {
        id: claimId,
        clinicId: 'clinic_north',
        patientId: patient.id,
        totalChargeCents: 100n,
        serviceDate: '2026-11-19',
        status: 'draft',
        correlationId: 'setup',
      },
    });
    expect((await submit({ claimId })).status).toBe(422);
    expect((await app.db.claim.findUniqueOrThrow({ where: { id: claimId } })).status).toBe('draft');
  });

  it('requires a step-up claim: 401 STEP_UP_REQUIRED without one, or with one minted for another user', async () => {
    const patientId = await eligiblePatient(app);
    const body = { patientId, totalCharge: 10, serviceDate: '2026-11-20', ...content(1_000) };
    const none = await billing.post('/api/claims/submit', body);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({
      code: 'STEP_UP_REQUIRED',
      message: 'Confirm it is you to continue',
      correlationId: expect.any(String),
    });
    expect(none.headers.get('www-authenticate')).toContain('insufficient_user_authentication');
    const foreign = await billing.post('/api/claims/submit', body, {
      headers: await stepUpHeader(app, 'admin@northside.test'),
    });
    expect(foreign.status).toBe(401);
    expect(await claimRows(app, { patientId })).toBe(0);
  });

  it('refuses a caller without claims:write, and an unauthenticated caller', async () => {
    const frontdesk = await signIn(app, 'frontdesk@northside.test');
    const res = await frontdesk.post(
      '/api/claims/submit',
      { patientId: 'pat_n_001', totalCharge: 1, serviceDate: '2026-11-20' },
      { headers: await stepUpHeader(app, 'frontdesk@northside.test') },
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'SCOPE_MISSING',
      message: 'This action needs the claims:write scope',
      correlationId: expect.any(String),
    });
    const anonymous = await new HttpClient(app.url).post('/api/claims/submit', {
      patientId: 'pat_n_001',
      totalCharge: 1,
      serviceDate: '2026-11-20',
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({
      code: 'UNAUTHENTICATED',
      message: 'Sign in to continue',
      correlationId: expect.any(String),
    });
  });
});

describe('GET /api/claims', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function seedClaims(clinicId: string, patientIds: string[], count: number) {
    const start = Date.parse('2026-10-01T00:00:00Z');
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const id = `clm_${String(i).padStart(4, '0')}${randomBytes(6).toString('hex')}`;
      ids.push(id);
      await app.db.claim.create({
        data: {
          id,
          clinicId,
          patientId: patientIds[i % patientIds.length]!,
          totalChargeCents: BigInt(1000 + i),
          serviceDate: '2026-10-01',
          status: i % 3 === 0 ? 'paid' : 'submitted',
          correlationId: 'setup',
          createdAt: new Date(start + i * 60_000),
        },
      });
    }
    return ids;
  }

  it("lists at most 100 of the clinic's claims, newest first, with integer cents", async () => {
    const tenant = await createTenant(app.db);
    const a = await createPatient(app.db, tenant);
    const b = await createPatient(app.db, tenant);
    const ids = await seedClaims(tenant.clinicId, [a.id, b.id], 105);
    const user = await createUser(app.db, tenant, { scopes: ['claims:read'] });
    const client = await signIn(app, user.email, user.password);
    const res = await client.get('/api/claims');
    expect(res.status).toBe(200);
    expect(res.body.claims).toHaveLength(100);
    expect(res.body.claims.map((c: { claimId: string }) => c.claimId)).toEqual(ids.slice(5).reverse());
    expect(res.body.claims[0]).toEqual({
      claimId: ids[104],
      patientId: a.id,
      patientName: `${a.firstName} ${a.lastName}`,
      patientBirthDate: a.birthDate,
      status: 'submitted',
      totalChargeCents: 1104,
      paidCents: 0,
      patientResponsibilityCents: 0,
      adjustmentCents: 0,
      writtenOffCents: 0,
      // Nothing paid, adjusted or written off yet: the whole charge is open.
      balanceCents: 1104,
      nextAction: null,
      nextActionReason: null,
      serviceDate: '2026-10-01',
      placeOfService: '11',
      diagnoses: [],
      lines: [],
      renderingNpi: null,
      payerId: null,
      payerName: null,
      memberId: null,
      statusReason: null,
      idempotencyKey: null,
      submittedAt: null,
      createdAt: new Date(Date.parse('2026-10-01T00:00:00Z') + 104 * 60_000).toISOString(),
      frequency: '1',
      replacesClaimId: null,
      payerRank: 'primary',
      primaryClaimId: null,
      payerClaimId: null,
    });

    const byPatient = await client.get(`/api/claims?patientId=${a.id}`);
    expect(byPatient.body.claims.every((c: { patientId: string }) => c.patientId === a.id)).toBe(true);
    expect(byPatient.body.claims).toHaveLength(53);
    const paid = await client.get(`/api/claims?status=paid&patientId=${b.id}`);
    expect(paid.body.claims.map((c: { claimId: string }) => c.claimId)).toEqual(
      ids.filter((_, i) => i % 3 === 0 && i % 2 === 1).reverse(),
    );
  });

  it("never shows another clinic's claims, and refuses a filter on another clinic's patient", async () => {
    const tenant = await createTenant(app.db);
    const patient = await createPatient(app.db, tenant);
    await seedClaims(tenant.clinicId, [patient.id], 3);
    const other = await signIn(app, 'admin@southside.test');
    const res = await other.get('/api/claims');
    expect(res.status).toBe(200);
    expect(res.body.claims.filter((c: { patientId: string }) => c.patientId === patient.id)).toEqual([]);
    const filtered = await other.get(`/api/claims?patientId=${patient.id}`);
    expect(filtered.status).toBe(403);
    expect(filtered.body).toEqual({
      code: 'OUT_OF_SCOPE',
      message: 'The patient is not enrolled in your clinic',
      correlationId: expect.any(String),
    });
  });

  it('refuses an unknown status, a caller without claims:read, and an unauthenticated caller', async () => {
    const frontdesk = await signIn(app, 'frontdesk@northside.test');
    const bad = await frontdesk.get('/api/claims?status=lost');
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toEqual([{ path: 'query.status', message: expect.any(String) }]);
    const tenant = await createTenant(app.db);
    const user = await createUser(app.db, tenant, { scopes: ['svcpay:read'] });
    const noScope = await (await signIn(app, user.email, user.password)).get('/api/claims');
    expect(noScope.status).toBe(403);
    expect(noScope.body).toEqual({
      code: 'SCOPE_MISSING',
      message: 'This action needs the claims:read scope',
      correlationId: expect.any(String),
    });
    const anonymous = await new HttpClient(app.url).get('/api/claims');
    expect(anonymous.status).toBe(401);
  });
});
