// POST /api/eligibility/roster over real HTTP: the demo day on the sandbox payer, the batch rules (scope,
// skips, defaults, order, summary), NDJSON progress, and the live CORE adapter against the fake payer
// (concurrency cap, failures that must read `unknown`), plus production without a transport.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RosterResponse } from '@/lib/eligibility/check-roster';
import { clinicToday } from '@/lib/time/clinic-day';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createPatient, createTenant, createUser, type TestTenant } from '../support/factories';
import { read270, startFakePayer, type FakePayer, type FakePayerBehaviour } from '../fakes/core-payer';

const anyId = expect.any(String);
// Northside and the test clinics count days in New York (DECISIONS "Staff app"), not in UTC.
const today = () => clinicToday(new Date(), 'America/New_York');
const NORTH: TestTenant = { orgId: 'org_demo', clinicId: 'clinic_north', clinicName: 'Northside Clinic' };

type Line =
  { type: 'result'; index: number; [key: string]: unknown } | { type: 'summary'; summary: Record<string, number> };
const readLines = (text: string): Line[] =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Line);

function coreEnv(fake: FakePayer): Record<string, string> {
  return {
    ELIGIBILITY_CORE_URL: fake.url,
    ELIGIBILITY_CORE_USERNAME: fake.username,
    ELIGIBILITY_CORE_PASSWORD: fake.password,
    ELIGIBILITY_SENDER_ID: fake.senderId,
    ELIGIBILITY_RECEIVER_ID: fake.receiverId,
  };
}

describe('POST /api/eligibility/roster on the demo day (sandbox payer)', () => {
  let app: TestApp;
  let frontdesk: HttpClient;
  let appointments: { patientId: string; start: string }[];
  beforeAll(async () => {
    app = await startApp();
    frontdesk = await signIn(app, 'frontdesk@northside.test');
    const list = await frontdesk.get(`/api/appointments?date=${today()}`);
    appointments = list.body.appointments.map((a: { patientId: string; start: string }) => ({
      patientId: a.patientId,
      start: a.start,
    }));
  });
  afterAll(async () => {
    await app?.stop();
  });

  // Demo member scenarios by patient (DECISIONS "Demo tenant"); _010 is self-pay.
  const EXPECTED: Record<
    string,
    { skipped: boolean; status?: string; network?: string; priorAuthRequired?: boolean; reasonCode?: string }
  > = {
    pat_n_001: { skipped: false, status: 'active', network: 'IN' },
    pat_n_002: { skipped: false, status: 'inactive' },
    pat_n_003: { skipped: false, status: 'active', priorAuthRequired: true },
    pat_n_004: { skipped: false, status: 'active', network: 'OUT' },
    pat_n_005: { skipped: false, status: 'unknown', reasonCode: '75' },
    pat_n_006: { skipped: false, status: 'unknown', reasonCode: '42' },
    pat_n_007: { skipped: false, status: 'active' },
    pat_n_008: { skipped: false, status: 'active' },
    pat_n_009: { skipped: false, status: 'active' },
    pat_n_010: { skipped: true },
  };

  it("checks today's appointments in order, with names from the records and a summary that adds up", async () => {
    const res = await frontdesk.post('/api/eligibility/roster', { appointments });
    expect(res.status).toBe(200);
    // The route writes each result's JSON as it finishes: byte for byte what the response schema gives.
    expect(res.text).toBe(JSON.stringify(RosterResponse.parse(JSON.parse(res.text))));
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body.summary).toEqual({ total: 10, active: 6, inactive: 1, unknown: 2, skipped: 1 });
    expect(res.body.results.map((r: { appointment: unknown }) => r.appointment)).toEqual(appointments);
    for (const r of res.body.results) {
      const expected = EXPECTED[r.appointment.patientId]!;
      expect(r.skipped).toBe(expected.skipped);
      if (expected.skipped) {
        expect(r).toEqual({ appointment: r.appointment, skipped: true, skipReason: 'NO_MEMBER_ID' });
        continue;
      }
      expect(r.result).toMatchObject({
        mode: 'sandbox',
        status: expected.status,
        eligible: expected.status === 'active',
        payerId: '60054',
        ...(expected.network ? { network: expected.network } : {}),
        ...(expected.priorAuthRequired ? { priorAuthRequired: true, priorAuthCodes: ['30'] } : {}),
        ...(expected.reasonCode
          ? { rejection: expect.objectContaining({ reasonCode: expected.reasonCode }) }
          : { rejection: null }),
      });
      // The full parsed fields travel in every roster result.
      expect(Object.keys(r.result).sort()).toEqual([
        'cached',
        'coinsurance',
        'copay',
        'coverageEnd',
        'coverageOnFile',
        'coverageStart',
        'deductible',
        'eligible',
        'groupNumber',
        'memberId',
        'memberName',
        'mode',
        'network',
        'outOfPocket',
        'payerId',
        'planName',
        'priorAuthCodes',
        'priorAuthRequired',
        'rejection',
        'status',
        'verifiedAt',
      ]);
    }
    const first = res.body.results[0].result;
    expect(first).toMatchObject({
      memberName: 'Avery Northside001',
      deductible: { remaining: 100000 },
      copay: { primaryCare: 2500, specialist: 5000 },
    });
    // One PHI access row per patient, and a check row per looked-up appointment for the claims precondition.
    const correlationId = res.headers.get('x-correlation-id')!;
    expect(await app.db.phiAccessLog.count({ where: { correlationId, purpose: 'eligibility.roster' } })).toBe(10);
  });

  it('streams one NDJSON line per finished appointment, then the summary, when the client asks for it', async () => {
    const res = await frontdesk.post(
      '/api/eligibility/roster',
      { appointments, concurrency: 3 },
      { headers: { accept: 'application/x-ndjson' } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = readLines(res.text);
    expect(lines).toHaveLength(11);
    const results = lines.slice(0, 10) as Extract<Line, { type: 'result' }>[];
    expect(results.every((l) => l.type === 'result')).toBe(true);
    expect(results.map((l) => l.index).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const line of results)
      expect((line.appointment as { patientId: string }).patientId).toBe(appointments[line.index]!.patientId);
    expect(lines[10]).toEqual({
      type: 'summary',
      summary: { total: 10, active: 6, inactive: 1, unknown: 2, skipped: 1 },
    });
  });

  it("flags a row whose status, network or prior-auth flag differs from the patient's previous check", async () => {
    const patient = await createPatient(app.db, NORTH, { memberId: 'DEMO-ACTIVE-C1' });
    const start = `${today()}T15:00:00.000Z`;
    const run = async () =>
      (await frontdesk.post('/api/eligibility/roster', { appointments: [{ patientId: patient.id, start }] })).body
        .results[0];
    // The first check has nothing before it; the same answer from the cache compares it with nothing either.
    expect(await run()).toMatchObject({ result: { status: 'active', network: 'IN' }, changedSinceLastCheck: false });
    expect(await run()).toMatchObject({ result: { cached: true }, changedSinceLastCheck: false });
    // New coverage on file: a fresh answer, out of network now.
    await app.db.patient.update({ where: { id: patient.id }, data: { coverageMemberId: 'DEMO-OON-C1' } });
    expect(await run()).toMatchObject({
      result: { status: 'active', network: 'OUT', cached: false },
      changedSinceLastCheck: true,
    });
    // Served again from that check (the morning after an evening run): still compared with the check before it.
    expect(await run()).toMatchObject({ result: { network: 'OUT', cached: true }, changedSinceLastCheck: true });
    expect(
      (await app.db.eligibilityCheck.findMany({ where: { patientId: patient.id }, select: { source: true } })).map(
        (c) => c.source,
      ),
    ).toEqual(['staff', 'staff']);
  });

  it("uses the item's member and payer first, then the coverage on file, then defaultPayerId; skips what is missing", async () => {
    const withCoverage = await createPatient(app.db, NORTH, { memberId: 'DEMO-ACTIVE-R1' });
    const noPayer = await createPatient(app.db, NORTH, { memberId: 'DEMO-ACTIVE-R2', payerId: null, payerName: null });
    const noMember = await createPatient(app.db, NORTH, { memberId: null });
    const start = `${today()}T15:00:00.000Z`;
    const res = await frontdesk.post('/api/eligibility/roster', {
      appointments: [
        { patientId: withCoverage.id, start, memberId: 'DEMO-INACTIVE-R1' }, // item member id wins
        { patientId: withCoverage.id, start, payerId: 'RP777' }, // item payer id wins
        { patientId: noPayer.id, start }, // payer from defaultPayerId
        { patientId: noMember.id, start }, // no member id anywhere: skipped
      ],
      defaultPayerId: 'DEF01',
    });
    expect(res.status).toBe(200);
    const rows = (r: any) => [
      r.skipped,
      r.skipReason ?? null,
      r.result?.status ?? null,
      r.result?.payerId ?? null,
      r.result?.memberId ?? null,
      r.result?.coverageOnFile ?? null,
    ];
    // coverageOnFile: an item's own member or payer is not the coverage on file; no payer on file is none.
    expect(res.body.results.map(rows)).toEqual([
      [false, null, 'inactive', '60054', 'DEMO-INACTIVE-R1', 'mismatch'],
      [false, null, 'active', 'RP777', 'DEMO-ACTIVE-R1', 'mismatch'],
      [false, null, 'active', 'DEF01', 'DEMO-ACTIVE-R2', 'none'],
      [true, 'NO_MEMBER_ID', null, null, null, null],
    ]);
    const checks = await app.db.eligibilityCheck.findMany({
      where: { patientId: { in: [withCoverage.id, noPayer.id] } },
    });
    expect(checks.map((c) => [c.memberId, c.payerId, c.coverageOnFile]).sort()).toEqual([
      ['DEMO-ACTIVE-R1', 'RP777', 'mismatch'],
      ['DEMO-ACTIVE-R2', 'DEF01', 'none'],
      ['DEMO-INACTIVE-R1', '60054', 'mismatch'],
    ]);
    // The coverage on file itself matches.
    const own = await frontdesk.post('/api/eligibility/roster', {
      appointments: [{ patientId: withCoverage.id, start }],
    });
    expect(own.body.results[0].result).toMatchObject({
      status: 'active',
      memberId: 'DEMO-ACTIVE-R1',
      payerId: '60054',
      coverageOnFile: 'match',
    });
    expect(res.body.summary).toEqual({ total: 4, active: 2, inactive: 1, unknown: 0, skipped: 1 });

    const without = await frontdesk.post('/api/eligibility/roster', {
      appointments: [{ patientId: noPayer.id, start }],
    });
    expect(without.body).toEqual({
      summary: { total: 1, active: 0, inactive: 0, unknown: 0, skipped: 1 },
      results: [{ appointment: { patientId: noPayer.id, start }, skipped: true, skipReason: 'NO_PAYER_ID' }],
    });
  });

  const fiveHundredOne = () => Array.from({ length: 501 }, () => ({ patientId: 'pat_n_001' }));
  const invalid: [string, () => unknown, { path: string; message: string }[]][] = [
    [
      'an empty roster',
      () => ({ appointments: [] }),
      [{ path: 'body.appointments', message: 'appointments must not be empty' }],
    ],
    ['no appointments at all', () => ({}), [{ path: 'body.appointments', message: 'appointments must be a list' }]],
    [
      'an appointment without patientId',
      () => ({ appointments: [{ patientId: 'pat_n_001' }, { memberId: 'X1' }] }),
      [{ path: 'body.appointments.1.patientId', message: 'patientId is required' }],
    ],
    [
      'more than 500 appointments',
      () => ({ appointments: fiveHundredOne() }),
      [{ path: 'body.appointments', message: 'at most 500 appointments per roster' }],
    ],
    [
      'concurrency 0',
      () => ({ appointments: [{ patientId: 'pat_n_001' }], concurrency: 0 }),
      [{ path: 'body.concurrency', message: 'concurrency must be a whole number from 1 to 20' }],
    ],
    [
      'concurrency 21',
      () => ({ appointments: [{ patientId: 'pat_n_001' }], concurrency: 21 }),
      [{ path: 'body.concurrency', message: 'concurrency must be a whole number from 1 to 20' }],
    ],
    [
      'concurrency 2.5',
      () => ({ appointments: [{ patientId: 'pat_n_001' }], concurrency: 2.5 }),
      [{ path: 'body.concurrency', message: 'concurrency must be a whole number from 1 to 20' }],
    ],
    [
      'a malformed provider NPI',
      () => ({ appointments: [{ patientId: 'pat_n_001' }], provider: { npi: '12', name: 'X' } }),
      [{ path: 'body.provider.npi', message: 'npi must be 10 digits' }],
    ],
    [
      'a malformed start',
      () => ({ appointments: [{ patientId: 'pat_n_001', start: 'today at nine' }] }),
      [{ path: 'body.appointments.0.start', message: 'start must be an ISO-8601 timestamp' }],
    ],
  ];
  it.each(invalid)('refuses %s with VALIDATION_FAILED and the field path', async (_name, body, issues) => {
    const checks = await app.db.eligibilityCheck.count();
    const res = await frontdesk.post('/api/eligibility/roster', body());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The request body is not valid',
      correlationId: anyId,
      issues,
    });
    expect(await app.db.eligibilityCheck.count()).toBe(checks);
  });

  it('refuses a caller without a session with 401', async () => {
    const res = await new HttpClient(app.url).post('/api/eligibility/roster', { appointments });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'UNAUTHENTICATED', message: 'Sign in to continue', correlationId: anyId });
  });

  it('refuses a user without eligibility:read with SCOPE_MISSING', async () => {
    const billing = await signIn(app, 'billing@northside.test');
    const res = await billing.post('/api/eligibility/roster', { appointments });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'SCOPE_MISSING',
      message: 'This action needs the eligibility:read scope',
      correlationId: anyId,
    });
  });

  it.each([
    ['one patient of another clinic', 'pat_s_003'],
    ['one patient that does not exist', 'pat_n_999'],
  ])('rejects the whole batch holding %s with OUT_OF_SCOPE, checking and logging nothing', async (_name, intruder) => {
    const [phi, checks] = [await app.db.phiAccessLog.count(), await app.db.eligibilityCheck.count()];
    const res = await frontdesk.post(
      '/api/eligibility/roster',
      { appointments: [...appointments, { patientId: intruder }] },
      { headers: { accept: 'application/x-ndjson' } },
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'OUT_OF_SCOPE',
      message: 'The patient is not enrolled in your clinic',
      correlationId: anyId,
    });
    expect([await app.db.phiAccessLog.count(), await app.db.eligibilityCheck.count()]).toEqual([phi, checks]);
  });
});

describe('POST /api/eligibility/roster over the live CAQH CORE transport (fake payer)', () => {
  let fake: FakePayer;
  let app: TestApp;
  let tenant: TestTenant;
  let client: HttpClient;
  beforeAll(async () => {
    fake = await startFakePayer();
    app = await startApp({ env: coreEnv(fake) });
    tenant = await createTenant(app.db, 'Roster');
    const user = await createUser(app.db, tenant, { scopes: ['eligibility:read'] });
    client = await signIn(app, user.email, user.password);
  });
  afterAll(async () => {
    await app?.stop();
    await fake?.close();
  });

  const patients = (n: number, prefix = 'DEMO-ACTIVE') =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        createPatient(app.db, tenant, { memberId: `${prefix}-${Date.now().toString(36)}${i}` }),
      ),
    );

  it('never has more lookups in flight than the concurrency cap, and reaches it', { timeout: 60_000 }, async () => {
    try {
      // peakInFlight only grows, so the caps go up: each run proves "at most" and "reached" for its cap. The cap is
      // reached only if its last lookup leaves before the first answer comes: at 20, on two loaded cores, 120 ms was
      // once too short (a peak of 19), so the payer answers that run more slowly.
      for (const [concurrency, size, latencyMs] of [
        [2, 8, 120],
        [5, 20, 120],
        [20, 60, 500],
      ] as const) {
        fake.setLatency(latencyMs);
        const batch = await patients(size);
        const calls = fake.calls;
        const res = await client.post('/api/eligibility/roster', {
          appointments: batch.map((p) => ({ patientId: p.id })),
          ...(concurrency === 5 ? {} : { concurrency }), // 5 is the default
        });
        expect(res.status).toBe(200);
        expect(res.body.summary).toEqual({ total: size, active: size, inactive: 0, unknown: 0, skipped: 0 });
        expect(fake.calls).toBe(calls + size);
        expect(fake.peakInFlight).toBe(concurrency);
      }
    } finally {
      fake.setLatency(0);
    }
  });

  it('sends each 270 with the name and date of birth on file and the clinic billing provider, unless a provider is given', async () => {
    const patient = await createPatient(app.db, tenant, {
      firstName: 'Katherine',
      lastName: 'Johnson',
      birthDate: '1968-08-26',
      memberId: 'DEMO-ACTIVE-KJ1',
    });
    const received = fake.received.length;
    const res = await client.post('/api/eligibility/roster', {
      appointments: [{ patientId: patient.id, start: '2026-04-07T14:30:00-05:00' }],
      serviceTypeCodes: ['30'],
    });
    expect(res.body.results[0].result).toMatchObject({
      status: 'active',
      mode: 'live',
      memberName: 'Katherine Johnson',
    });
    expect(read270(fake.received[received]!.fields.Payload!)).toMatchObject({
      memberId: 'DEMO-ACTIVE-KJ1',
      firstName: 'Katherine',
      lastName: 'Johnson',
      dob: '19680826',
      providerNpi: '1234567893',
      providerName: 'Roster Billing',
      dateOfService: '20260407',
    });
    const other = await client.post('/api/eligibility/roster', {
      appointments: [{ patientId: patient.id, start: '2026-04-07T14:30:00-05:00' }],
      provider: { npi: '1497758544', name: 'Dr Rendering' },
    });
    expect(other.body.results[0].result.cached).toBe(false); // another NPI is another question
    expect(read270(fake.received.at(-1)!.fields.Payload!)).toMatchObject({
      providerNpi: '1497758544',
      providerName: 'Dr Rendering',
    });
  });

  it('serves a repeated roster from the cache without calling the payer, except the transient AAA 42', async () => {
    const [a, b] = await patients(2);
    const [down] = await patients(1, 'DEMO-DOWN');
    const body = { appointments: [a, b, down].map((p) => ({ patientId: p!.id })) };
    const first = await client.post('/api/eligibility/roster', body);
    const calls = fake.calls;
    const second = await client.post('/api/eligibility/roster', body);
    expect(first.body.summary).toEqual({ total: 3, active: 2, inactive: 0, unknown: 1, skipped: 0 });
    expect(second.body.summary).toEqual(first.body.summary);
    expect(second.body.results.map((r: any) => r.result.cached)).toEqual([true, true, false]);
    expect(fake.calls).toBe(calls + 1);
  });

  it.each<[FakePayerBehaviour]>([['http-500'], ['garbage'], ['core-error']])(
    'reports every lookup as unknown (never active) with a reason when the payer answers %s',
    async (behaviour) => {
      const batch = await patients(3);
      fake.setBehaviour(behaviour);
      let res;
      try {
        res = await client.post('/api/eligibility/roster', { appointments: batch.map((p) => ({ patientId: p.id })) });
      } finally {
        fake.setBehaviour('ok');
      }
      expect(res.status).toBe(200);
      expect(res.body.summary).toEqual({ total: 3, active: 0, inactive: 0, unknown: 3, skipped: 0 });
      for (const r of res.body.results) {
        expect(r.result).toMatchObject({
          status: 'unknown',
          eligible: false,
          mode: 'live',
          cached: false,
          network: 'UNKNOWN',
          coverageOnFile: 'match',
          rejection: {
            reasonCode: 'TRANSPORT_FAILED',
            reason: 'The payer could not be reached',
            followUpCode: null,
            followUp: expect.any(String),
            loop: null,
          },
        });
      }
      // Nothing was recorded or cached for them: the next roster asks again.
      expect(await app.db.eligibilityCheck.count({ where: { patientId: { in: batch.map((p) => p.id) } } })).toBe(0);
    },
  );

  it(
    'reports a lookup the payer holds past the 15 s timeout as unknown, while the others finish',
    { timeout: 45_000 },
    async () => {
      const [slow, fast] = await patients(2);
      fake.setBehaviour('timeout');
      const pending = client.post(
        '/api/eligibility/roster',
        { appointments: [{ patientId: slow!.id }, { patientId: fast!.id }], concurrency: 1 },
        { headers: { accept: 'application/x-ndjson' } },
      );
      // Let the first request reach the fake, then answer the rest normally.
      const deadline = Date.now() + 5000;
      const received = fake.received.length;
      while (fake.received.length === received && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      fake.setBehaviour('ok');
      const res = await pending;
      const lines = readLines(res.text);
      expect(lines.at(-1)).toEqual({
        type: 'summary',
        summary: { total: 2, active: 1, inactive: 0, unknown: 1, skipped: 0 },
      });
      const byIndex = Object.fromEntries(
        lines.filter((l) => l.type === 'result').map((l) => [(l as { index: number }).index, l]),
      );
      expect((byIndex[0] as any).result).toMatchObject({
        status: 'unknown',
        rejection: { reasonCode: 'TRANSPORT_FAILED' },
      });
      expect((byIndex[1] as any).result).toMatchObject({ status: 'active' });
    },
  );

  it('refuses a clinic without a billing NPI unless the request names one, logging nothing when it refuses', async () => {
    const bare = await createTenant(app.db, 'No NPI');
    await app.db.clinic.update({ where: { id: bare.clinicId }, data: { billingNpi: null, billingProviderName: null } });
    const user = await createUser(app.db, bare, { scopes: ['eligibility:read'] });
    const staff = await signIn(app, user.email, user.password);
    const mine = await Promise.all([0, 1].map((i) => createPatient(app.db, bare, { memberId: `DEMO-ACTIVE-NPI${i}` })));
    const foreign = await createPatient(app.db, tenant);
    const logged = () => app.db.phiAccessLog.count({ where: { clinicId: bare.clinicId } });
    const calls = fake.calls;
    // Duplicates collapse: three appointments, two patients.
    const appointments = [...mine, mine[0]!].map((p) => ({ patientId: p.id }));

    const missing = await staff.post('/api/eligibility/roster', { appointments });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      issues: [{ path: 'body.provider.npi', message: 'Required: the clinic has no billing provider NPI on file' }],
    });
    // A patient of another clinic is refused first, whatever the NPI.
    const intruder = await staff.post('/api/eligibility/roster', {
      appointments: [...appointments, { patientId: foreign.id }],
    });
    expect(intruder.status).toBe(403);
    expect(intruder.body.code).toBe('OUT_OF_SCOPE');
    expect(await logged()).toBe(0);
    expect(fake.calls).toBe(calls);

    const named = await staff.post('/api/eligibility/roster', { appointments, provider: { npi: '1497758544' } });
    expect(named.status).toBe(200);
    expect(named.body.summary).toMatchObject({ total: 3, active: 3 });
    expect(await logged()).toBe(2);
    const sent = fake.received.slice(-2).map((r) => read270(r.fields.Payload!)!);
    // No billing provider on file: the 270 names the clinic itself beside the request's NPI.
    expect(sent.map((r) => [r.providerNpi, r.providerName])).toEqual([
      ['1497758544', bare.clinicName],
      ['1497758544', bare.clinicName],
    ]);
  });

  it('rejects a batch with a patient of another clinic before the payer hears anything', async () => {
    const mine = await patients(2);
    const foreign = await createPatient(app.db, await createTenant(app.db, 'Elsewhere'));
    const calls = fake.calls;
    const res = await client.post('/api/eligibility/roster', {
      appointments: [...mine, foreign].map((p) => ({ patientId: p.id })),
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'OUT_OF_SCOPE',
      message: 'The patient is not enrolled in your clinic',
      correlationId: anyId,
    });
    expect(fake.calls).toBe(calls);
  });
});

describe('POST /api/eligibility/roster in production without a live transport', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ env: { SVC_ENV: 'production' } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('refuses with 503 before any work: no scope lookup, no PHI log, no results fabricated', async () => {
    const tenant = await createTenant(app.db, 'Prod');
    const user = await createUser(app.db, tenant, { scopes: ['eligibility:read'] });
    const patient = await createPatient(app.db, tenant);
    const client = await signIn(app, user.email, user.password);
    for (const accept of ['application/json', 'application/x-ndjson']) {
      const res = await client.post(
        '/api/eligibility/roster',
        { appointments: [{ patientId: patient.id }, { patientId: 'pat_other' }] },
        { headers: { accept } },
      );
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

describe('POST /api/eligibility/roster on the embedded PGlite database', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ database: 'pglite' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  // openRoster refuses to go on unless its one statement wrote every PHI log row, so a 200 here is the log written.
  it('checks the demo day and serves the repeat from the cache', async () => {
    const frontdesk = await signIn(app, 'frontdesk@northside.test');
    const list = await frontdesk.get(`/api/appointments?date=${today()}`);
    const appointments = list.body.appointments.map((a: { patientId: string }) => ({ patientId: a.patientId }));
    const first = await frontdesk.post('/api/eligibility/roster', { appointments });
    expect(first.status).toBe(200);
    expect(first.body.summary).toEqual({ total: 10, active: 6, inactive: 1, unknown: 2, skipped: 1 });
    const second = await frontdesk.post('/api/eligibility/roster', { appointments });
    expect(second.body.summary).toEqual(first.body.summary);
    const active = second.body.results.find(
      (r: { appointment: { patientId: string } }) => r.appointment.patientId === 'pat_n_001',
    );
    expect(active.result).toMatchObject({ status: 'active', cached: true });
    expect(active.changedSinceLastCheck).toBe(false);
  });
});
