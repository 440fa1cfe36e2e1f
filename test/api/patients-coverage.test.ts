// PUT /api/patients/{id}/coverage over real HTTP and PostgreSQL: staff replace a patient's coverage on file
// (claims:write), only in their own clinic (another clinic's patient and a missing one answer the same 403),
// with field messages for what a 270 could not carry, and an audit row that names no member id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createPatient, createTenant, createUser, type TestTenant } from '../support/factories';

const anyId = expect.any(String);
const NORTH: TestTenant = { orgId: 'org_demo', clinicId: 'clinic_north', clinicName: 'Northside Clinic' };
const REFUSED = { code: 'OUT_OF_SCOPE', message: 'The patient is not enrolled in your clinic', correlationId: anyId };

describe('PUT /api/patients/{id}/coverage', () => {
  let app: TestApp;
  let billing: HttpClient;
  beforeAll(async () => {
    app = await startApp();
    billing = await signIn(app, 'billing@northside.test');
  });
  afterAll(async () => {
    await app?.stop();
  });

  const put = (patientId: string, body: unknown, client = billing) =>
    client.request('PUT', `/api/patients/${patientId}/coverage`, { json: body });
  const coverageOf = (id: string) =>
    app.db.patient.findUniqueOrThrow({
      where: { id },
      select: { coverageMemberId: true, coveragePayerId: true, coveragePayerName: true, coverageGroupNumber: true },
    });

  it('replaces the coverage on file, answers it, and audits which parts changed without their values', async () => {
    const patient = await createPatient(app.db, NORTH, { memberId: 'DEMO-ACTIVE-P1' });
    const correlationId = 'coverage-put-0001-abcdef';
    const res = await billing.request('PUT', `/api/patients/${patient.id}/coverage`, {
      json: { payerId: '87726', memberId: '  UHC-998877  ', groupNumber: ' GRP-42 ' },
      headers: { 'x-correlation-id': correlationId },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      patientId: patient.id,
      rank: 'primary',
      payerId: '87726',
      payerName: 'UnitedHealthcare',
      memberId: 'UHC-998877',
      groupNumber: 'GRP-42',
      updatedAt: anyId,
    });
    expect(await coverageOf(patient.id)).toEqual({
      coverageMemberId: 'UHC-998877',
      coveragePayerId: '87726',
      coveragePayerName: 'UnitedHealthcare',
      coverageGroupNumber: 'GRP-42',
    });
    const audit = await app.db.auditLog.findMany({ where: { correlationId } });
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'patients.coverage.update',
        outcome: 'success',
        userId: 'user_billing_north',
        orgId: 'org_demo',
        clinicId: 'clinic_north',
        detail: {
          patientId: patient.id,
          rank: 'primary',
          payerChanged: true,
          memberIdChanged: true,
          groupNumberChanged: true,
        },
      }),
    ]);
    expect(JSON.stringify(audit)).not.toMatch(/UHC-998877|DEMO-ACTIVE-P1|GRP-42/);
  });

  it('keeps the payer name on file for the same payer, takes a listed name for another, and clears an omitted group number', async () => {
    const patient = await createPatient(app.db, NORTH, { memberId: 'DEMO-ACTIVE-P2', payerName: 'Aetna Open Access' });
    await app.db.patient.update({ where: { id: patient.id }, data: { coverageGroupNumber: 'OLD-GROUP' } });
    const same = await put(patient.id, { payerId: '60054', memberId: 'DEMO-ACTIVE-P3' });
    expect(same.body).toMatchObject({
      payerId: '60054',
      payerName: 'Aetna Open Access',
      memberId: 'DEMO-ACTIVE-P3',
      groupNumber: null,
    });
    const unlisted = await put(patient.id, { payerId: 'RP123', memberId: 'DEMO-ACTIVE-P3' });
    expect(unlisted.body).toMatchObject({ payerId: 'RP123', payerName: null });
    const audit = await app.db.auditLog.findFirstOrThrow({
      where: { correlationId: unlisted.headers.get('x-correlation-id')! },
    });
    expect(audit.detail).toEqual({
      patientId: patient.id,
      rank: 'primary',
      payerChanged: true,
      memberIdChanged: false,
      groupNumberChanged: false,
    });
  });

  it('refuses a user without claims:write with 403 SCOPE_MISSING and changes nothing', async () => {
    const patient = await createPatient(app.db, NORTH, { memberId: 'DEMO-ACTIVE-P4' });
    const frontdesk = await signIn(app, 'frontdesk@northside.test');
    const res = await put(patient.id, { payerId: '60054', memberId: 'DEMO-ACTIVE-P5' }, frontdesk);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'SCOPE_MISSING',
      message: 'This action needs the claims:write scope',
      correlationId: anyId,
    });
    expect((await coverageOf(patient.id)).coverageMemberId).toBe('DEMO-ACTIVE-P4');
  });

  it('refuses a caller without a session with 401', async () => {
    const res = await put('pat_n_001', { payerId: '60054', memberId: 'DEMO-ACTIVE-P6' }, new HttpClient(app.url));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'UNAUTHENTICATED', message: 'Sign in to continue', correlationId: anyId });
  });

  it.each([
    ["another clinic's patient", async () => 'pat_n_002'],
    [
      'a patient of another organization',
      async () =>
        (await createPatient(app.db, await createTenant(app.db, 'Elsewhere'), { memberId: 'DEMO-ACTIVE-P7' })).id,
    ],
    ['a patient that does not exist', async () => 'pat_nobody'],
  ])(
    "refuses Southside's admin %s with the same 403 OUT_OF_SCOPE, changes nothing and audits the refusal",
    async (_name, patientIdOf) => {
      const patientId = await patientIdOf();
      const before = await app.db.patient.findUnique({ where: { id: patientId } });
      const south = await signIn(app, 'admin@southside.test');
      const res = await put(patientId, { payerId: '87726', memberId: 'SOUTH-OVERWRITE' }, south);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(REFUSED);
      expect(await app.db.patient.findUnique({ where: { id: patientId } })).toEqual(before);
      const audit = await app.db.auditLog.findMany({ where: { correlationId: res.headers.get('x-correlation-id')! } });
      expect(audit).toEqual([
        expect.objectContaining({
          action: 'patients.coverage.update',
          outcome: 'refused',
          clinicId: 'clinic_south',
          detail: { patientId, reason: 'not-in-clinic' },
        }),
      ]);
    },
  );

  const invalid: [string, unknown, { path: string; message: string }[]][] = [
    [
      'no body fields',
      {},
      [
        { path: 'body.payerId', message: 'payerId is required' },
        { path: 'body.memberId', message: 'memberId is required' },
      ],
    ],
    [
      'a one-character member id',
      { payerId: '60054', memberId: 'A' },
      [{ path: 'body.memberId', message: 'memberId must be 2 to 80 characters' }],
    ],
    [
      'an X12 delimiter in the member id',
      { payerId: '60054', memberId: 'AB*CD' },
      [{ path: 'body.memberId', message: 'memberId may hold only letters, digits, spaces, . _ / and -' }],
    ],
    [
      'a payer id with punctuation',
      { payerId: '600-54', memberId: 'AB12' },
      [{ path: 'body.payerId', message: 'payerId must be 2 to 80 letters or digits' }],
    ],
    [
      'a payer id that is not a string',
      { payerId: 60054, memberId: 'AB12' },
      [{ path: 'body.payerId', message: 'payerId must be a string' }],
    ],
    [
      'a 51-character group number',
      { payerId: '60054', memberId: 'AB12', groupNumber: 'G'.repeat(51) },
      [{ path: 'body.groupNumber', message: 'groupNumber must be at most 50 characters' }],
    ],
  ];
  it.each(invalid)(
    'refuses %s with VALIDATION_FAILED and the field path, changing nothing',
    async (_name, body, issues) => {
      const patient = await createPatient(app.db, NORTH, { memberId: 'DEMO-ACTIVE-P8' });
      const res = await put(patient.id, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'The request body is not valid',
        correlationId: anyId,
        issues,
      });
      expect((await coverageOf(patient.id)).coverageMemberId).toBe('DEMO-ACTIVE-P8');
    },
  );

  it('a user of a fresh tenant with claims:write reaches only its own patients', async () => {
    const tenant = await createTenant(app.db, 'Own');
    const user = await createUser(app.db, tenant, { scopes: ['claims:write'] });
    const client = await signIn(app, user.email, user.password);
    const own = await createPatient(app.db, tenant, { memberId: 'DEMO-ACTIVE-P9' });
    expect((await put(own.id, { payerId: '60054', memberId: 'DEMO-ACTIVE-P10' }, client)).status).toBe(200);
    const foreign = await put('pat_n_001', { payerId: '60054', memberId: 'DEMO-ACTIVE-P10' }, client);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual(REFUSED);
  });
});
