// POST /api/eligibility/verify over real HTTP: the sandbox payer (demo members), the live CAQH CORE adapter
// against the loopback fake payer, production without a transport, and the embedded PGlite database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicToday } from '@/lib/time/clinic-day';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createPatient, createTenant, createUser } from '../support/factories';
import {
  FAKE_PAYER_ERROR_TEXT,
  read270,
  startFakePayer,
  type FakePayer,
  type FakePayerBehaviour,
} from '../fakes/core-payer';

// Northside and the test clinics count days in New York (DECISIONS "Staff app"), not in UTC.
const today = () => clinicToday(new Date(), 'America/New_York');
const anyId = expect.any(String);

// pat_n_001 of the demo tenant (lib/demo/demo-tenant.ts): Avery Northside001, born 1971-02-11.
const DEMO = {
  patientId: 'pat_n_001',
  firstName: 'Avery',
  lastName: 'Northside001',
  dob: '1971-02-11',
  memberId: 'DEMO-ACTIVE-N001',
  payerName: 'Aetna',
  npi: '1234567893',
};

const EMPTY_AMOUNTS = { individual: null, met: null, remaining: null };
// The sandbox's "anything else" member (ELIGIBILITY.md): the active PPO, amounts in integer cents.
const ACTIVE_PPO = {
  status: 'active',
  eligible: true,
  rejection: null,
  payerId: '60054',
  planName: 'DEMO PPO',
  groupNumber: 'DEMO-GRP-001',
  deductible: { individual: 150000, met: 50000, remaining: 100000 },
  outOfPocket: { individual: 600000, met: 150000, remaining: 450000 },
  copay: { specialist: 5000, primaryCare: 2500 },
  coinsurance: 20,
  coverageEnd: null,
  priorAuthRequired: false,
  priorAuthCodes: [],
  network: 'IN',
};

function coreEnv(fake: FakePayer): Record<string, string> {
  return {
    ELIGIBILITY_CORE_URL: fake.url,
    ELIGIBILITY_CORE_USERNAME: fake.username,
    ELIGIBILITY_CORE_PASSWORD: fake.password,
    ELIGIBILITY_SENDER_ID: fake.senderId,
    ELIGIBILITY_RECEIVER_ID: fake.receiverId,
  };
}

describe('POST /api/eligibility/verify with the sandbox payer', () => {
  let app: TestApp;
  let frontdesk: HttpClient;
  beforeAll(async () => {
    app = await startApp();
    frontdesk = await signIn(app, 'frontdesk@northside.test');
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('answers the active demo member with the whole documented result in cents, mode sandbox', async () => {
    const tenant = await createTenant(app.db);
    const user = await createUser(app.db, tenant, { scopes: ['eligibility:read'] });
    const patient = await createPatient(app.db, tenant, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      birthDate: '1985-12-10',
      memberId: 'DEMO-ACTIVE-T1',
    });
    const client = await signIn(app, user.email, user.password);
    const before = Date.now();
    const res = await client.post('/api/eligibility/verify', {
      patientId: patient.id,
      firstName: 'Ada',
      lastName: 'Lovelace',
      dob: '1985-12-10',
      memberId: 'DEMO-ACTIVE-T1',
      payerName: 'Aetna',
      npi: '1234567893',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...ACTIVE_PPO,
      mode: 'sandbox',
      cached: false,
      memberId: 'DEMO-ACTIVE-T1',
      memberName: 'Ada Lovelace',
      coverageOnFile: 'match',
      coverageStart: `${new Date().getUTCFullYear()}-01-01`,
      verifiedAt: anyId,
    });
    expect(Date.parse(res.body.verifiedAt)).toBeGreaterThanOrEqual(before - 1000);

    // The row the claims precondition reads: an active check for this patient, now.
    const rows = await app.db.eligibilityCheck.findMany({ where: { patientId: patient.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      clinicId: tenant.clinicId,
      userId: user.id,
      status: 'active',
      eligible: true,
      mode: 'sandbox',
      cacheable: true,
      payerId: '60054',
      memberId: 'DEMO-ACTIVE-T1',
      coverageOnFile: 'match',
      serviceType: '30',
      dateOfService: today(),
      correlationId: res.headers.get('x-correlation-id'),
    });
    expect(rows[0]!.createdAt.toISOString()).toBe(res.body.verifiedAt);
    expect(rows[0]!.cacheKey).toMatch(/^[0-9a-f]{64}$/);

    // The read is in the PHI access log.
    const phi = await app.db.phiAccessLog.findMany({ where: { patientId: patient.id } });
    expect(phi).toEqual([
      expect.objectContaining({
        orgId: tenant.orgId,
        clinicId: tenant.clinicId,
        userId: user.id,
        purpose: 'eligibility.verify',
        correlationId: res.headers.get('x-correlation-id'),
      }),
    ]);
  });

  it.each([
    ['DEMO-ACTIVE-N001', { ...ACTIVE_PPO }],
    [
      'DEMO-INACTIVE-N002',
      {
        status: 'inactive',
        eligible: false,
        rejection: null,
        planName: 'DEMO PPO',
        network: 'UNKNOWN',
        deductible: EMPTY_AMOUNTS,
        coverageEnd: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      },
    ],
    ['DEMO-PRIORAUTH-N003', { ...ACTIVE_PPO, priorAuthRequired: true, priorAuthCodes: ['30'] }],
    ['DEMO-OON-N004', { ...ACTIVE_PPO, network: 'OUT' }],
    [
      'DEMO-NOTFOUND-N005',
      {
        status: 'unknown',
        eligible: false,
        network: 'UNKNOWN',
        rejection: {
          reasonCode: '75',
          reason: expect.stringContaining('not found'),
          followUpCode: 'C',
          followUp: expect.any(String),
          loop: '2100C',
        },
      },
    ],
    [
      'DEMO-DOWN-N006',
      {
        status: 'unknown',
        eligible: false,
        network: 'UNKNOWN',
        rejection: {
          reasonCode: '42',
          reason: expect.stringContaining('Unable to respond'),
          followUpCode: 'R',
          followUp: expect.any(String),
          loop: '2100A',
        },
      },
    ],
  ])('gives demo member %s its documented answer', async (memberId, expected) => {
    const res = await frontdesk.post('/api/eligibility/verify', { ...DEMO, memberId, serviceType: '30' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...expected, mode: 'sandbox', memberId });
    // "Coverage ended last month": before today's date of service.
    if (memberId.startsWith('DEMO-INACTIVE')) expect(res.body.coverageEnd < today()).toBe(true);
  });

  it.each([
    [
      'match when the member id and payer are the coverage on file (letter case aside)',
      { memberId: 'DEMO-ACTIVE-M1' },
      'demo-active-m1',
      'match',
    ],
    [
      'mismatch for another member id than the one on file',
      { memberId: 'DEMO-ACTIVE-M2' },
      'DEMO-ACTIVE-M3',
      'mismatch',
    ],
    [
      'mismatch for another payer than the one on file',
      { memberId: 'DEMO-ACTIVE-M4', payerId: '87726', payerName: 'UnitedHealthcare' },
      'DEMO-ACTIVE-M4',
      'mismatch',
    ],
    [
      'none for a patient without coverage on file',
      { memberId: null, payerId: null, payerName: null },
      'DEMO-ACTIVE-M5',
      'none',
    ],
  ])('answers coverageOnFile %s, and records it on the check', async (_name, coverage, memberId, expected) => {
    const patient = await createPatient(
      app.db,
      { orgId: 'org_demo', clinicId: 'clinic_north', clinicName: 'Northside Clinic' },
      coverage,
    );
    const res = await frontdesk.post('/api/eligibility/verify', {
      ...DEMO,
      patientId: patient.id,
      dob: patient.birthDate,
      memberId,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'active', payerId: '60054', coverageOnFile: expected });
    const rows = await app.db.eligibilityCheck.findMany({ where: { patientId: patient.id } });
    expect(rows.map((r) => [r.memberId, r.payerId, r.coverageOnFile])).toEqual([[memberId, '60054', expected]]);
  });

  it('compares a cached answer with the coverage on file as it is now, not as it was when cached', async () => {
    const patient = await createPatient(
      app.db,
      { orgId: 'org_demo', clinicId: 'clinic_north', clinicName: 'Northside Clinic' },
      { memberId: 'DEMO-ACTIVE-M6' },
    );
    const body = { ...DEMO, patientId: patient.id, dob: patient.birthDate, memberId: 'DEMO-ACTIVE-M6' };
    const first = await frontdesk.post('/api/eligibility/verify', body);
    expect(first.body).toMatchObject({ cached: false, coverageOnFile: 'match' });
    await app.db.patient.update({ where: { id: patient.id }, data: { coverageMemberId: 'DEMO-ACTIVE-M7' } });
    const second = await frontdesk.post('/api/eligibility/verify', body);
    expect(second.body).toEqual({ ...first.body, cached: true, coverageOnFile: 'mismatch' });
  });

  it('serves a repeat within 24 h from the cache, with the first verifiedAt and no new check', async () => {
    const patient = await createPatient(
      app.db,
      { orgId: 'org_demo', clinicId: 'clinic_north', clinicName: 'Northside Clinic' },
      { memberId: 'DEMO-ACTIVE-C1', birthDate: '1990-03-04' },
    );
    const body = { ...DEMO, patientId: patient.id, memberId: 'DEMO-ACTIVE-C1', dob: '1990-03-04', dos: today() };
    const first = await frontdesk.post('/api/eligibility/verify', body);
    const second = await frontdesk.post('/api/eligibility/verify', { ...body, payerName: 'Aetna Health' });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.body.cached).toBe(false);
    expect(second.body).toEqual({ ...first.body, cached: true });
    expect(await app.db.eligibilityCheck.count({ where: { patientId: patient.id } })).toBe(1);
    // Another date of service is another question.
    const other = await frontdesk.post('/api/eligibility/verify', { ...body, dos: '2026-01-05' });
    expect(other.body.cached).toBe(false);
    expect(await app.db.eligibilityCheck.count({ where: { patientId: patient.id } })).toBe(2);
  });

  it('never caches a transient rejection (AAA 42)', async () => {
    const patient = await createPatient(
      app.db,
      { orgId: 'org_demo', clinicId: 'clinic_north', clinicName: 'Northside Clinic' },
      { memberId: 'DEMO-DOWN-C2' },
    );
    const body = { ...DEMO, patientId: patient.id, memberId: 'DEMO-DOWN-C2', dob: '1980-01-02' };
    const first = await frontdesk.post('/api/eligibility/verify', body);
    const second = await frontdesk.post('/api/eligibility/verify', body);
    expect([first.body.cached, second.body.cached]).toEqual([false, false]);
    expect(second.body.status).toBe('unknown');
    const rows = await app.db.eligibilityCheck.findMany({ where: { patientId: patient.id } });
    expect(rows.map((r) => [r.status, r.cacheable])).toEqual([
      ['unknown', false],
      ['unknown', false],
    ]);
  });

  it('adds the verbatim segments behind each value when explain is true, and only then', async () => {
    const explained = await frontdesk.post('/api/eligibility/verify', { ...DEMO, explain: true });
    expect(explained.status).toBe(200);
    expect(explained.body.evidence).toMatchObject({
      status: ['EB*1*IND*30*PR*DEMO PPO'],
      'deductible.remaining': ['EB*C*IND*30***29*1000*****Y'],
      'copay.primaryCare': ['EB*B*IND*98***27*25*****Y', 'MSG*PRIMARY CARE OFFICE VISIT'],
      network: ['MSG*IN NETWORK'],
    });
    // The cached answer keeps its evidence.
    const again = await frontdesk.post('/api/eligibility/verify', { ...DEMO, explain: true });
    expect(again.body).toEqual({ ...explained.body, cached: true, verifiedAt: again.body.verifiedAt });
    const plain = await frontdesk.post('/api/eligibility/verify', DEMO);
    expect(plain.body).not.toHaveProperty('evidence');
  });

  it('maps payerName through the directory, and an explicit payerId wins over it', async () => {
    const alias = await frontdesk.post('/api/eligibility/verify', {
      ...DEMO,
      payerName: 'Aetna Life Insurance Company',
      dos: '2026-02-02',
    });
    expect(alias.body).toMatchObject({ status: 'active', payerId: '60054' });
    const explicit = await frontdesk.post('/api/eligibility/verify', {
      ...DEMO,
      payerName: 'Some Regional Plan',
      payerId: 'RP123',
      dos: '2026-02-02',
    });
    expect(explicit.status).toBe(200);
    expect(explicit.body).toMatchObject({ status: 'active', payerId: 'RP123', cached: false });
  });

  it('ignores a clinicId in the body: tenancy comes from the session', async () => {
    const own = await frontdesk.post('/api/eligibility/verify', {
      ...DEMO,
      clinicId: 'clinic_south',
      dos: '2026-03-03',
    });
    expect(own.status).toBe(200);
    const rows = await app.db.eligibilityCheck.findMany({
      where: { correlationId: own.headers.get('x-correlation-id')! },
    });
    expect(rows.map((r) => r.clinicId)).toEqual(['clinic_north']);
    const foreign = await frontdesk.post('/api/eligibility/verify', {
      ...DEMO,
      patientId: 'pat_s_001',
      memberId: 'DEMO-ACTIVE-S001',
      clinicId: 'clinic_south',
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('OUT_OF_SCOPE');
  });

  const invalid: [string, unknown, { path: string; message: string }[]][] = [
    [
      'a missing patientId',
      { ...DEMO, patientId: undefined },
      [{ path: 'body.patientId', message: 'patientId is required' }],
    ],
    ['an empty patientId', { ...DEMO, patientId: '' }, [{ path: 'body.patientId', message: 'patientId is required' }]],
    [
      'a missing memberId',
      { ...DEMO, memberId: undefined },
      [{ path: 'body.memberId', message: 'memberId is required' }],
    ],
    [
      'a missing firstName and lastName',
      { ...DEMO, firstName: undefined, lastName: undefined },
      [
        { path: 'body.firstName', message: 'firstName is required' },
        { path: 'body.lastName', message: 'lastName is required' },
      ],
    ],
    [
      'a missing payerName',
      { ...DEMO, payerName: undefined },
      [{ path: 'body.payerName', message: 'payerName is required' }],
    ],
    [
      'a malformed dob',
      { ...DEMO, dob: '02/11/1971' },
      [{ path: 'body.dob', message: 'dob must be a date YYYY-MM-DD' }],
    ],
    ['a 9-digit npi', { ...DEMO, npi: '123456789' }, [{ path: 'body.npi', message: 'npi must be 10 digits' }]],
    ['a malformed dos', { ...DEMO, dos: 'tomorrow' }, [{ path: 'body.dos', message: 'dos must be a date YYYY-MM-DD' }]],
    [
      'an unknown service type form',
      { ...DEMO, serviceType: 'vision' },
      [{ path: 'body.serviceType', message: 'serviceType must be an X12 service type code such as 30, 1, 5 or AL' }],
    ],
    [
      'a two-letter service type X12 does not list',
      { ...DEMO, serviceType: 'ZZ' },
      [{ path: 'body.serviceType', message: 'serviceType must be an X12 service type code such as 30, 1, 5 or AL' }],
    ],
    [
      'a three-digit service type',
      { ...DEMO, serviceType: '999' },
      [{ path: 'body.serviceType', message: 'serviceType must be an X12 service type code such as 30, 1, 5 or AL' }],
    ],
    [
      'a service type number X12 skips (29)',
      { ...DEMO, serviceType: '29' },
      [{ path: 'body.serviceType', message: 'serviceType must be an X12 service type code such as 30, 1, 5 or AL' }],
    ],
    [
      'a one-character member id (NM109 is 2..80)',
      { ...DEMO, memberId: 'A' },
      [{ path: 'body.memberId', message: 'memberId must be 2 to 80 characters' }],
    ],
    [
      'a one-character member id inside spaces',
      { ...DEMO, memberId: '  A  ' },
      [{ path: 'body.memberId', message: 'memberId must be 2 to 80 characters' }],
    ],
    [
      'an 81-character member id',
      { ...DEMO, memberId: 'M'.repeat(81) },
      [{ path: 'body.memberId', message: 'memberId must be 2 to 80 characters' }],
    ],
    [
      'a 61-character lastName (NM103 is at most 60)',
      { ...DEMO, lastName: 'L'.repeat(61) },
      [{ path: 'body.lastName', message: 'lastName must be at most 60 characters' }],
    ],
    [
      'a 36-character firstName (NM104 is at most 35)',
      { ...DEMO, firstName: 'F'.repeat(36) },
      [{ path: 'body.firstName', message: 'firstName must be at most 35 characters' }],
    ],
    [
      'an X12 delimiter in a name',
      { ...DEMO, lastName: 'Doe~ISA' },
      [
        {
          path: 'body.lastName',
          message: 'lastName may hold only plain letters, digits, spaces and punctuation other than * ^ : ~',
        },
      ],
    ],
  ];
  it.each(invalid)('refuses %s with VALIDATION_FAILED and the field path', async (_name, body, issues) => {
    const before = await app.db.phiAccessLog.count();
    const res = await frontdesk.post('/api/eligibility/verify', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The request body is not valid',
      correlationId: anyId,
      issues,
    });
    expect(await app.db.phiAccessLog.count()).toBe(before);
  });

  it('refuses a payerName the directory does not know (without payerId) with 400 on body.payerName', async () => {
    const res = await frontdesk.post('/api/eligibility/verify', { ...DEMO, payerName: 'Blue Cross Blue Shield' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The payer is not in the payer directory; send its payerId',
      correlationId: anyId,
      issues: [
        { path: 'body.payerName', message: 'Unknown payer name; send payerId for a payer the directory does not list' },
      ],
    });
  });

  it('refuses a body that is not JSON', async () => {
    const res = await frontdesk.request('POST', '/api/eligibility/verify', {
      body: '{"patientId":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The request body is not valid JSON',
      correlationId: anyId,
      issues: [{ path: 'body', message: 'Invalid JSON' }],
    });
  });

  it('refuses a caller without a session with 401', async () => {
    const res = await new HttpClient(app.url).post('/api/eligibility/verify', DEMO);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'UNAUTHENTICATED', message: 'Sign in to continue', correlationId: anyId });
  });

  it('refuses a user without eligibility:read with SCOPE_MISSING', async () => {
    const billing = await signIn(app, 'billing@northside.test');
    const res = await billing.post('/api/eligibility/verify', DEMO);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'SCOPE_MISSING',
      message: 'This action needs the eligibility:read scope',
      correlationId: anyId,
    });
  });

  it.each([
    ['a patient of another clinic', 'pat_s_001'],
    ['a patient that does not exist', 'pat_nobody'],
  ])('refuses %s with the same OUT_OF_SCOPE, writing nothing', async (_name, patientId) => {
    const [phi, checks] = [await app.db.phiAccessLog.count(), await app.db.eligibilityCheck.count()];
    const res = await frontdesk.post('/api/eligibility/verify', { ...DEMO, patientId });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'OUT_OF_SCOPE',
      message: 'The patient is not enrolled in your clinic',
      correlationId: anyId,
    });
    expect([await app.db.phiAccessLog.count(), await app.db.eligibilityCheck.count()]).toEqual([phi, checks]);
  });
});

describe('POST /api/eligibility/verify over the live CAQH CORE transport (fake payer)', () => {
  let fake: FakePayer;
  let app: TestApp;
  let client: HttpClient;
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  beforeAll(async () => {
    fake = await startFakePayer();
    app = await startApp({ env: coreEnv(fake) });
    tenant = await createTenant(app.db, 'Live');
    const user = await createUser(app.db, tenant, { scopes: ['eligibility:read'] });
    client = await signIn(app, user.email, user.password);
  });
  afterAll(async () => {
    await app?.stop();
    await fake?.close();
  });

  async function withBehaviour<T>(behaviour: FakePayerBehaviour, run: () => Promise<T>): Promise<T> {
    fake.setBehaviour(behaviour);
    try {
      return await run();
    } finally {
      fake.setBehaviour('ok');
    }
  }

  const bodyFor = (patient: {
    id: string;
    firstName: string;
    lastName: string;
    birthDate: string;
    coverageMemberId: string | null;
  }) => ({
    patientId: patient.id,
    firstName: patient.firstName,
    lastName: patient.lastName,
    dob: patient.birthDate,
    memberId: patient.coverageMemberId!,
    payerName: 'Aetna',
    npi: '1234567893',
  });

  it('sends a CORE real-time envelope with our 270 and answers from the 271, mode live', async () => {
    const patient = await createPatient(app.db, tenant, {
      firstName: 'Grace',
      lastName: 'Hopper',
      birthDate: '1976-12-09',
      memberId: 'DEMO-ACTIVE-L1',
    });
    const correlationId = 'verify-live-0001-abcdef';
    const received = fake.received.length;
    const res = await client.post(
      '/api/eligibility/verify',
      { ...bodyFor(patient), dos: '2026-05-04', serviceType: '30' },
      { headers: { 'x-correlation-id': correlationId } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      mode: 'live',
      status: 'active',
      eligible: true,
      rejection: null,
      cached: false,
      payerId: '60054',
      memberId: 'DEMO-ACTIVE-L1',
    });
    expect(fake.received.length).toBe(received + 1);
    const envelope = fake.received.at(-1)!;
    expect(envelope.correlationId).toBe(correlationId);
    expect(envelope.fields).toMatchObject({
      PayloadType: 'X12_270_Request_005010X279A1',
      ProcessingMode: 'RealTime',
      SenderID: fake.senderId,
      ReceiverID: fake.receiverId,
      CORERuleVersion: '2.2.0',
      PayloadID: expect.stringMatching(/^[0-9a-f-]{36}$/),
      TimeStamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
    });
    // Read with the fake's own 270 reader (independent of lib/x12).
    expect(read270(envelope.fields.Payload!)).toMatchObject({
      memberId: 'DEMO-ACTIVE-L1',
      firstName: 'Grace',
      lastName: 'Hopper',
      dob: '19761209',
      providerNpi: '1234567893',
      serviceType: '30',
      dateOfService: '20260504',
      trace: expect.stringMatching(/^[0-9A-F]{20}$/),
    });
  });

  it('sends names and member ids at their X12 limits trimmed and whole, never cut', async () => {
    const patient = await createPatient(app.db, tenant, { memberId: 'Q7' });
    const [firstName, lastName] = ['F'.repeat(35), 'L'.repeat(60)];
    const res = await client.post('/api/eligibility/verify', {
      ...bodyFor(patient),
      firstName: `  ${firstName} `,
      lastName: ` ${lastName}  `,
      memberId: ' Q7 ',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mode: 'live', memberId: 'Q7', coverageOnFile: 'match' });
    expect(read270(fake.received.at(-1)!.fields.Payload!)).toMatchObject({ memberId: 'Q7', firstName, lastName });
  });

  it('answers a repeat from the cache without calling the payer', async () => {
    const patient = await createPatient(app.db, tenant, { memberId: 'DEMO-ACTIVE-L2' });
    const first = await client.post('/api/eligibility/verify', bodyFor(patient));
    const calls = fake.calls;
    const second = await client.post('/api/eligibility/verify', bodyFor(patient));
    expect(second.body).toEqual({ ...first.body, cached: true });
    expect(fake.calls).toBe(calls);
  });

  it('asks the payer again after an AAA 42 (transient, not cached)', async () => {
    const patient = await createPatient(app.db, tenant, { memberId: 'DEMO-DOWN-L3' });
    const calls = fake.calls;
    const first = await client.post('/api/eligibility/verify', bodyFor(patient));
    const second = await client.post('/api/eligibility/verify', bodyFor(patient));
    expect(first.body).toMatchObject({
      status: 'unknown',
      eligible: false,
      cached: false,
      rejection: { reasonCode: '42' },
    });
    expect(second.body.cached).toBe(false);
    expect(fake.calls).toBe(calls + 2);
  });

  it.each([
    ['a patient of another clinic', async () => (await createPatient(app.db, await createTenant(app.db, 'Other'))).id],
    ['a patient that does not exist', async () => 'pat_does_not_exist'],
  ])('refuses %s with OUT_OF_SCOPE before the payer hears anything', async (_name, patientIdOf) => {
    const patientId = await patientIdOf();
    const calls = fake.calls;
    const res = await client.post('/api/eligibility/verify', { ...DEMO, patientId });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'OUT_OF_SCOPE',
      message: 'The patient is not enrolled in your clinic',
      correlationId: anyId,
    });
    expect(fake.calls).toBe(calls);
  });

  it('answers a 999 in place of a 271 with 200, status unknown and a rejection staff can act on (not cached)', async () => {
    // The fake answers a 270 it cannot read (here: a name character outside its basic set) with a 999.
    const patient = await createPatient(app.db, tenant, { lastName: 'Doe#Smith', memberId: 'DEMO-ACTIVE-L4' });
    const res = await client.post('/api/eligibility/verify', bodyFor(patient));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      mode: 'live',
      status: 'unknown',
      eligible: false,
      cached: false,
      memberId: 'DEMO-ACTIVE-L4',
      network: 'UNKNOWN',
      rejection: {
        reasonCode: '999',
        reason: expect.stringContaining('999'),
        followUpCode: null,
        followUp: expect.any(String),
        loop: null,
      },
      deductible: EMPTY_AMOUNTS,
    });
    const rows = await app.db.eligibilityCheck.findMany({ where: { patientId: patient.id } });
    expect(rows.map((r) => [r.status, r.cacheable])).toEqual([['unknown', false]]);
  });

  it.each<[FakePayerBehaviour]>([['http-500'], ['garbage'], ['core-error']])(
    'answers 502 TRANSPORT_FAILED when the payer answers %s, caching and recording nothing',
    async (behaviour) => {
      const patient = await createPatient(app.db, tenant, { memberId: `DEMO-ACTIVE-${behaviour.toUpperCase()}` });
      const calls = fake.calls;
      const res = await withBehaviour(behaviour, () => client.post('/api/eligibility/verify', bodyFor(patient)));
      expect(res.status).toBe(502);
      expect(res.body).toEqual({
        code: 'TRANSPORT_FAILED',
        message: 'The payer could not be reached; try the eligibility check again later',
        correlationId: anyId,
      });
      expect(res.text).not.toContain(FAKE_PAYER_ERROR_TEXT);
      expect(fake.calls).toBe(calls + 1);
      expect(await app.db.eligibilityCheck.count({ where: { patientId: patient.id } })).toBe(0);
      // The next attempt asks the payer again.
      const retry = await client.post('/api/eligibility/verify', bodyFor(patient));
      expect(retry.body).toMatchObject({ status: 'active', cached: false });
    },
  );

  it('answers 502 when the payer holds the request past the 15 s timeout', { timeout: 40_000 }, async () => {
    const patient = await createPatient(app.db, tenant, { memberId: 'DEMO-ACTIVE-SLOW' });
    const started = Date.now();
    const res = await withBehaviour('timeout', () => client.post('/api/eligibility/verify', bodyFor(patient)));
    const elapsed = Date.now() - started;
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      code: 'TRANSPORT_FAILED',
      message: 'The payer could not be reached; try the eligibility check again later',
      correlationId: anyId,
    });
    expect(elapsed).toBeGreaterThanOrEqual(14_500);
    expect(elapsed).toBeLessThan(25_000);
  });
});

describe('POST /api/eligibility/verify in production without a live transport', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ env: { SVC_ENV: 'production' } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('refuses with 503 before any work: no PHI log, no check row, no demo coverage', async () => {
    const tenant = await createTenant(app.db, 'Prod');
    const user = await createUser(app.db, tenant, { scopes: ['eligibility:read'] });
    const patient = await createPatient(app.db, tenant);
    const client = await signIn(app, user.email, user.password);
    for (const patientId of [patient.id, 'pat_unknown']) {
      const res = await client.post('/api/eligibility/verify', {
        ...DEMO,
        patientId,
        memberId: patient.coverageMemberId,
      });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        code: 'DEPENDENCY_UNAVAILABLE',
        message: 'Eligibility checks are not configured',
        correlationId: anyId,
      });
    }
    expect(await app.db.phiAccessLog.count()).toBe(0);
    expect(await app.db.eligibilityCheck.count()).toBe(0);
  });
});

describe('POST /api/eligibility/verify on the embedded PGlite database', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ database: 'pglite' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('verifies a demo member and serves the repeat from the cache', async () => {
    const client = await signIn(app, 'frontdesk@northside.test');
    const first = await client.post('/api/eligibility/verify', DEMO);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ...ACTIVE_PPO, mode: 'sandbox', cached: false, memberId: 'DEMO-ACTIVE-N001' });
    const second = await client.post('/api/eligibility/verify', DEMO);
    expect(second.body).toEqual({ ...first.body, cached: true });
  });
});
