// CDS Hooks 2.0 (issue #23, DECISIONS "CDS Hooks"): discovery, both services' cards for the demo patients, the
// EHR JWT refusals (401, nothing read), the bound clinic as the only place a patient is matched, feedback, and
// production without a knowledge base (501, zero calls) while coverage-check keeps answering.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createPatient, createTenant } from '../support/factories';
import { startFakeCdsEhr, type FakeCdsEhr } from '../fakes/fake-cds-ehr';
import { embeddedFhirStore } from '@/lib/fhir/embedded-fhir-store';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  COVERAGE_ELIGIBILITY_REQUEST_R4,
  COVERAGE_ELIGIBILITY_RESPONSE_R4,
} from '../support/fhir-r4-eligibility-schema';

const AETNA = '60054';

function coverage(memberId: string, payerId = AETNA) {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    entry: [
      {
        resource: {
          resourceType: 'Coverage',
          id: 'cov-1',
          status: 'active',
          subscriberId: memberId,
          beneficiary: { reference: 'Patient/ehr-123' },
          payor: [{ identifier: { system: 'http://hl7.org/fhir/sid/us-npi', value: payerId }, display: 'Aetna' }],
        },
      },
    ],
  };
}

function appointmentBook(memberId: string | null, extra: Record<string, unknown> = {}) {
  return {
    hook: 'appointment-book',
    hookInstance: randomUUID(),
    fhirServer: 'https://ehr.example.test/fhir',
    context: {
      userId: 'Practitioner/dr-1',
      patientId: 'ehr-123',
      appointments: {
        resourceType: 'Bundle',
        type: 'collection',
        entry: [{ resource: { resourceType: 'Appointment', id: 'appt-1', status: 'proposed' } }],
      },
    },
    prefetch: { patient: { resourceType: 'Patient', id: 'ehr-123' }, coverage: memberId ? coverage(memberId) : null },
    ...extra,
  };
}

const serviceRequest = (code: string, id = `sr-${code}`) => ({
  resource: {
    resourceType: 'ServiceRequest',
    id,
    status: 'draft',
    intent: 'order',
    subject: { reference: 'Patient/ehr-123' },
    code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code, display: `procedure ${code}` }] },
  },
});

function orderSign(memberId: string, codes: string[]) {
  return {
    hook: 'order-sign',
    hookInstance: randomUUID(),
    fhirServer: 'https://ehr.example.test/fhir',
    context: {
      userId: 'Practitioner/dr-1',
      patientId: 'ehr-123',
      draftOrders: { resourceType: 'Bundle', type: 'collection', entry: codes.map((c) => serviceRequest(c)) },
    },
    prefetch: { coverage: coverage(memberId) },
  };
}

async function phiReads(app: TestApp, purposePrefix = 'cds-hooks.') {
  return app.db.phiAccessLog.count({ where: { purpose: { startsWith: purposePrefix } } });
}

describe('CDS Hooks in sandbox, an EHR bound to Northside', () => {
  let app: TestApp;
  let ehr: FakeCdsEhr;
  let anonymous: HttpClient;
  const url = (id: string) => `${app.url}/cds-services/${id}`;
  const call = async (id: string, body: unknown, token?: string | null) =>
    anonymous.request('POST', `/cds-services/${id}`, {
      json: body,
      headers: token === null ? {} : { authorization: `Bearer ${token ?? (await ehr.sign({ aud: url(id) }))}` },
    });

  beforeAll(async () => {
    ehr = await startFakeCdsEhr();
    app = await startApp({
      env: {
        CDS_CLIENTS: JSON.stringify({ [ehr.issuer]: { jwksUrl: ehr.jwksUrl, clinicId: 'clinic_north' } }),
        CDS_KNOWLEDGE_BASE_URL: ehr.knowledgeBaseUrl,
      },
    });
    anonymous = new HttpClient(app.url);
  });
  afterAll(async () => {
    await app?.stop();
    await ehr?.close();
  });

  it('serves the discovery document without a session, with CORS', async () => {
    const res = await anonymous.request('GET', '/cds-services', { headers: { origin: 'https://ehr.example.test' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const prefetch = {
      patient: 'Patient/{{context.patientId}}',
      coverage: 'Coverage?patient={{context.patientId}}&status=active',
    };
    expect(res.body.services).toEqual([
      expect.objectContaining({
        hook: 'appointment-book',
        id: 'coverage-check',
        title: expect.any(String),
        description: expect.any(String),
        prefetch,
      }),
      expect.objectContaining({
        hook: 'order-sign',
        id: 'coverage-requirements',
        title: expect.any(String),
        description: expect.any(String),
        prefetch,
      }),
    ]);
    const preflight = await anonymous.request('OPTIONS', '/cds-services/coverage-check', {
      headers: { origin: 'https://ehr.example.test', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
  });

  it.each([
    ['active', 'DEMO-ACTIVE-N001', 'pat_n_001', 'info', /active; copay \$\d/],
    ['inactive', 'DEMO-INACTIVE-N002', 'pat_n_002', 'critical', /inactive/],
    ['prior auth', 'DEMO-PRIORAUTH-N003', 'pat_n_003', 'warning', /prior authorization required/],
    ['out of network', 'DEMO-OON-N004', 'pat_n_004', 'warning', /out of network/],
    ['not found at the payer', 'DEMO-NOTFOUND-N005', 'pat_n_005', 'warning', /could not be confirmed/],
  ])(
    'coverage-check: %s coverage (member %s) gives one card of its indicator, linking to the verify screen',
    async (_, memberId, patientId, indicator, summary) => {
      const before = await app.db.phiAccessLog.count({ where: { patientId, purpose: 'cds-hooks.coverage-check' } });
      const res = await call('coverage-check', appointmentBook(memberId));
      expect(res.status).toBe(200);
      expect(res.body.cards).toHaveLength(1);
      const [card] = res.body.cards;
      expect(card).toMatchObject({
        uuid: expect.any(String),
        indicator,
        source: { label: expect.any(String) },
        links: [
          { type: 'absolute', url: `${app.url}/eligibility/verify?patientId=${patientId}`, label: expect.any(String) },
        ],
      });
      expect(card.summary).toMatch(summary);
      expect(card.summary.length).toBeLessThan(140);
      // Audited as a PHI read of exactly that patient, by the EHR.
      const after = await app.db.phiAccessLog.findMany({ where: { patientId, purpose: 'cds-hooks.coverage-check' } });
      expect(after.length).toBe(before + 1);
      expect(after.at(-1)).toMatchObject({ clinicId: 'clinic_north', userId: `cds:${ehr.issuer}` });
    },
  );

  it('coverage-check names the codes a payer flags for prior authorization in words, in the detail', async () => {
    const res = await call('coverage-check', appointmentBook('DEMO-PRIORAUTH-N003'));
    const [card] = res.body.cards;
    expect(card.summary).toBe('Coverage with Aetna is active; prior authorization required');
    expect(card.detail).toMatch(/^Prior authorization flagged by the payer for service type 30/);
  });

  it('coverage-check reuses the newest check of the coverage on file, and names copay and deductible in dollars', async () => {
    const checks = () => app.db.eligibilityCheck.count({ where: { patientId: 'pat_n_007' } });
    const first = await call('coverage-check', appointmentBook('DEMO-ACTIVE-N007'));
    expect(first.status).toBe(200);
    expect(await checks()).toBe(1);
    const second = await call('coverage-check', appointmentBook('DEMO-ACTIVE-N007'));
    expect(second.body.cards[0].indicator).toBe('info');
    expect(second.body.cards[0].detail).toMatch(/Deductible remaining: \$[\d,]+\.\d\d/);
    expect(await checks()).toBe(1);
  });

  it('never matches a patient of another clinic: one info card, nothing of Southside read', async () => {
    const before = await app.db.phiAccessLog.count({ where: { clinicId: 'clinic_south' } });
    const res = await call('coverage-check', appointmentBook('DEMO-ACTIVE-S001'));
    expect(res.status).toBe(200);
    expect(res.body.cards).toEqual([
      expect.objectContaining({ indicator: 'info', summary: 'Patient not found in Northside Clinic' }),
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/Southside|S001|pat_s_/);
    expect(await app.db.phiAccessLog.count({ where: { clinicId: 'clinic_south' } })).toBe(before);
    expect(await app.db.eligibilityCheck.count({ where: { clinicId: 'clinic_south' } })).toBe(0);
  });

  it('matches by the EHR patient in the FHIR store when the coverage is not on file, and says the coverages differ', async () => {
    const patient = await app.db.patient.findUniqueOrThrow({ where: { id: 'pat_n_008' } });
    const resource = {
      resourceType: 'Patient',
      id: 'ehr-888',
      name: [{ family: patient.lastName, given: [patient.firstName] }],
      birthDate: patient.birthDate,
    };
    // Stored as a pull from that EHR stores it: under a served id that names its source.
    const store = embeddedFhirStore(app.db);
    await store.upsertMany('clinic_north', [resource], { sourceBaseUrl: 'https://ehr.example.test/fhir/' });
    // The same Patient from another EHR of the clinic is not this EHR's patient.
    await store.upsertMany('clinic_north', [{ ...resource, id: 'ehr-889' }], {
      sourceBaseUrl: 'https://other-ehr.example.test/fhir',
    });
    const body = appointmentBook('SOMEONE-ELSE-1');
    body.context.patientId = 'ehr-888';
    const res = await call('coverage-check', body);
    expect(res.status).toBe(200);
    expect(res.body.cards[0]).toMatchObject({
      indicator: 'warning',
      links: [{ url: expect.stringContaining('pat_n_008') }],
    });
    expect(res.body.cards[0].detail).toMatch(/differs from the coverage on file/);

    const notFound = 'Patient not found in Northside Clinic';
    const otherSource = appointmentBook('SOMEONE-ELSE-1');
    otherSource.context.patientId = 'ehr-889';
    expect((await call('coverage-check', otherSource)).body.cards[0].summary).toBe(notFound);
    const noSource = appointmentBook('SOMEONE-ELSE-1', { fhirServer: undefined });
    noSource.context.patientId = 'ehr-888';
    expect((await call('coverage-check', noSource)).body.cards[0].summary).toBe(notFound);
  });

  it('reads a wildcard in the EHR coverage as text: "%" and "_" match no member id on file', async () => {
    const before = await phiReads(app);
    for (const [memberId, payerId] of [
      // Each pattern fits exactly one Northside patient, so a pattern read as a pattern would match.
      ['DEMO-PRIORAUTH-%', AETNA],
      ['DEMO-INACTIVE-N00_', AETNA],
      ['DEMO-ACTIVE-N001', '6005_'],
    ] as const) {
      const body = { ...appointmentBook(null), prefetch: { coverage: coverage(memberId, payerId) } };
      const res = await call('coverage-check', body);
      expect(res.status, res.text).toBe(200);
      expect(res.body.cards.map((c: { summary: string }) => c.summary)).toEqual([
        'Patient not found in Northside Clinic',
      ]);
    }
    expect(await phiReads(app)).toBe(before);
  });

  it('coverage-requirements: prior-auth warning, documentation info, not-covered critical with the covered alternative, no card without a rule', async () => {
    const res = await call(
      'coverage-requirements',
      orderSign('DEMO-ACTIVE-N001', ['72148', '97110', '97810', '99213']),
    );
    expect(res.status).toBe(200);
    const cards = res.body.cards as Array<Record<string, any>>;
    expect(cards.map((c) => [c.summary.slice(0, 5), c.indicator])).toEqual([
      ['72148', 'warning'],
      ['97110', 'info'],
      ['97810', 'critical'],
    ]);
    expect(cards[0]!.detail).toContain('Spine MRI needs an approved prior authorization');
    expect(cards[0]!.links).toEqual([
      expect.objectContaining({ url: 'https://payer.example.test/policies/spine-mri', type: 'absolute' }),
    ]);
    expect(cards[2]).toMatchObject({
      selectionBehavior: 'at-most-one',
      suggestions: [
        {
          label: expect.stringContaining('97140'),
          actions: [
            {
              type: 'update',
              resource: {
                resourceType: 'ServiceRequest',
                id: 'sr-97810',
                code: { coding: [{ code: '97140', system: 'http://www.ama-assn.org/go/cpt' }] },
              },
            },
          ],
        },
      ],
    });
    // The knowledge base came through the egress client once, and is cached for the hour.
    await call('coverage-requirements', orderSign('DEMO-ACTIVE-N001', ['72148']));
    expect(ehr.knowledgeBaseCalls()).toBe(1);
  });

  it('coverage-requirements for an unmatched patient: one info card, no rule read', async () => {
    const res = await call('coverage-requirements', orderSign('NOBODY-1', ['72148']));
    expect(res.body.cards).toEqual([
      expect.objectContaining({ indicator: 'info', summary: 'Patient not found in Northside Clinic' }),
    ]);
  });

  it('refuses every bad token with 401 and reads nothing', async () => {
    const aud = url('coverage-check');
    const now = Math.floor(Date.now() / 1000);
    const replayed = await ehr.sign({ aud });
    expect((await call('coverage-check', appointmentBook('DEMO-ACTIVE-N001'), replayed)).status).toBe(200);
    const reads = await phiReads(app);
    const checks = await app.db.eligibilityCheck.count();
    const cases: Array<[string, string | null]> = [
      ['no token', null],
      ['not a JWT', 'not-a-jwt'],
      ['wrong key', await ehr.sign({ aud }, ehr.otherKey)],
      ['wrong aud', await ehr.sign({ aud: url('coverage-requirements') })],
      ['aud of another server', await ehr.sign({ aud: `https://elsewhere.example/cds-services/coverage-check` })],
      ['expired', await ehr.sign({ aud, iat: now - 600, exp: now - 300 })],
      ['lives longer than 5 minutes', await ehr.sign({ aud, iat: now, exp: now + 3600 })],
      ['replayed jti', replayed],
      ['unknown issuer', await ehr.sign({ aud, iss: 'https://rogue.example' })],
    ];
    for (const [name, token] of cases) {
      const res = await call('coverage-check', appointmentBook('DEMO-ACTIVE-N001'), token);
      expect({ name, status: res.status, body: res.body }).toEqual({
        name,
        status: 401,
        body: { code: 'UNAUTHENTICATED', message: 'A valid EHR token is required', correlationId: expect.any(String) },
      });
    }
    expect(await phiReads(app)).toBe(reads);
    expect(await app.db.eligibilityCheck.count()).toBe(checks);
  });

  it('checks the token before it reads the body: a body that is not JSON is 401 without a token, 400 with one', async () => {
    const raw = (path: string, token: string | null) =>
      anonymous.request('POST', path, {
        body: '{"hook": "appointment-book", not json',
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      });
    for (const path of ['/cds-services/coverage-check', '/cds-services/coverage-check/feedback']) {
      const refused = await raw(path, null);
      expect({ path, status: refused.status, code: refused.body.code }).toEqual({
        path,
        status: 401,
        code: 'UNAUTHENTICATED',
      });
      const malformed = await raw(path, await ehr.sign({ aud: url('coverage-check') }));
      expect({ path, status: malformed.status, code: malformed.body.code, issues: malformed.body.issues }).toEqual({
        path,
        status: 400,
        code: 'VALIDATION_FAILED',
        issues: [{ path: 'body', message: expect.any(String) }],
      });
    }
    // Once the token holds, the body meets the same door as every other: 64 levels of nesting at most.
    const depth = 400_000;
    const deep = await anonymous.request('POST', '/cds-services/coverage-check', {
      body: '['.repeat(depth) + ']'.repeat(depth),
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${await ehr.sign({ aud: url('coverage-check') })}`,
      },
    });
    expect(deep.status, deep.text).toBe(400);
    expect(deep.body.issues).toEqual([{ path: `body${'.0'.repeat(64)}`, message: 'Nested deeper than 64 levels' }]);
  });

  it('answers 404 for a service it does not offer', async () => {
    const res = await call('no-such-service', appointmentBook('DEMO-ACTIVE-N001'));
    expect(res.status).toBe(404);
  });

  it('stores feedback and counts it on the admin endpoint', async () => {
    const feedbackUrl = `${url('coverage-check')}/feedback`;
    const card = randomUUID();
    const refused = await anonymous.request('POST', '/cds-services/coverage-check/feedback', {
      json: { feedback: [{ card, outcome: 'accepted' }] },
    });
    expect(refused.status).toBe(401);
    const res = await anonymous.request('POST', '/cds-services/coverage-check/feedback', {
      json: {
        feedback: [
          { card, outcome: 'accepted', outcomeTimestamp: new Date().toISOString() },
          {
            card: randomUUID(),
            outcome: 'overridden',
            overrideReason: { reason: { code: 'pt-declined', display: 'Patient declined' }, userComment: 'later' },
          },
        ],
      },
      headers: { authorization: `Bearer ${await ehr.sign({ aud: feedbackUrl })}` },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ stored: 2 });
    const rows = await app.db.cdsFeedback.findMany({
      where: { serviceId: 'coverage-check' },
      orderBy: { outcome: 'asc' },
    });
    expect(rows.map((r) => [r.clinicId, r.outcome, r.issuer])).toEqual([
      ['clinic_north', 'accepted', ehr.issuer],
      ['clinic_north', 'overridden', ehr.issuer],
    ]);
    expect(rows.find((r) => r.card === card)).toBeDefined();

    const admin = await signIn(app, 'admin@northside.test');
    const counts = await admin.request('GET', '/api/cds-hooks/feedback');
    expect(counts.status).toBe(200);
    expect(counts.body.services).toEqual([
      { serviceId: 'coverage-check', accepted: 1, overridden: 1, lastAt: expect.any(String) },
      { serviceId: 'coverage-requirements', accepted: 0, overridden: 0, lastAt: null },
    ]);
    const south = await signIn(app, 'admin@southside.test');
    expect((await south.request('GET', '/api/cds-hooks/feedback')).body.services[0]).toMatchObject({
      accepted: 0,
      overridden: 0,
    });
    const frontdesk = await signIn(app, 'frontdesk@northside.test');
    expect((await frontdesk.request('GET', '/api/cds-hooks/feedback')).status).toBe(403);
  });
  it('stores every eligibility check in the FHIR store as an R4 request/response pair, searchable by patient and created', async () => {
    const admin = await signIn(app, 'admin@northside.test');
    const patient = await app.db.patient.findUniqueOrThrow({ where: { id: 'pat_n_009' } });
    const clinic = await app.db.clinic.findUniqueOrThrow({ where: { id: 'clinic_north' } });
    const verify = await admin.request('POST', '/api/eligibility/verify', {
      json: {
        patientId: patient.id,
        firstName: patient.firstName,
        lastName: patient.lastName,
        dob: patient.birthDate,
        memberId: patient.coverageMemberId,
        payerName: 'Aetna',
        payerId: AETNA,
        npi: clinic.billingNpi,
      },
    });
    expect(verify.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    // FHIR ids allow no "_": our patient pat_n_009 is Patient/pat-n-009 there.
    const found = await admin.request(
      'GET',
      `/api/fhir/CoverageEligibilityResponse?patient=pat-n-009&created=ge${today}`,
    );
    expect(found.status).toBe(200);
    expect(found.body.entry).toHaveLength(1);
    const response = found.body.entry[0].resource;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validResponse = ajv.compile(COVERAGE_ELIGIBILITY_RESPONSE_R4);
    expect(validResponse(response), ajv.errorsText(validResponse.errors)).toBe(true);
    expect(response).toMatchObject({
      outcome: 'complete',
      patient: { reference: 'Patient/pat-n-009' },
      insurance: [{ inforce: true }],
    });
    const requestId = response.request.reference.split('/')[1];
    const request = await admin.request('GET', `/api/fhir/CoverageEligibilityRequest/${requestId}`);
    expect(request.status).toBe(200);
    const validRequest = ajv.compile(COVERAGE_ELIGIBILITY_REQUEST_R4);
    expect(validRequest(request.body), ajv.errorsText(validRequest.errors)).toBe(true);

    expect(
      (await admin.request('GET', '/api/fhir/CoverageEligibilityResponse?patient=pat-n-009&created=lt2000-01-01')).body
        .entry ?? [],
    ).toEqual([]);
    const south = await signIn(app, 'admin@southside.test');
    expect(
      (await south.request('GET', '/api/fhir/CoverageEligibilityResponse?patient=pat-n-009')).body.entry ?? [],
    ).toEqual([]);
    const metadata = await anonymous.request('GET', '/api/fhir/metadata');
    const types = metadata.body.rest[0].resource.map((r: { type: string }) => r.type);
    expect(types).toEqual(expect.arrayContaining(['CoverageEligibilityRequest', 'CoverageEligibilityResponse']));

    // The pairs are in a Bulk Data export too (every type the store holds), each line valid R4.
    const kickOff = await admin.request(
      'GET',
      '/api/fhir/$export?_type=CoverageEligibilityRequest,CoverageEligibilityResponse',
      { headers: { prefer: 'respond-async', accept: 'application/fhir+json' } },
    );
    expect(kickOff.status).toBe(202);
    let manifest = await admin.request('GET', kickOff.headers.get('content-location')!);
    for (let i = 0; i < 80 && manifest.status === 202; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      manifest = await admin.request('GET', kickOff.headers.get('content-location')!);
    }
    expect(manifest.status).toBe(200);
    const exported = manifest.body.output as Array<{ type: string; url: string; count: number }>;
    expect(exported.map((o) => o.type).sort()).toEqual(['CoverageEligibilityRequest', 'CoverageEligibilityResponse']);
    for (const file of exported) {
      const res = await admin.request('GET', file.url);
      expect(res.status).toBe(200);
      const lines = res.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines).toHaveLength(file.count);
      const valid = ajv.compile(
        file.type === 'CoverageEligibilityRequest' ? COVERAGE_ELIGIBILITY_REQUEST_R4 : COVERAGE_ELIGIBILITY_RESPONSE_R4,
      );
      for (const line of lines) expect(valid(line), ajv.errorsText(valid.errors)).toBe(true);
    }
  });

  it('a payer rejection becomes outcome error with the AAA reason', async () => {
    // pat_n_005's coverage-check above ran a live verify: its pair is in the store.
    const admin = await signIn(app, 'admin@northside.test');
    const found = await admin.request('GET', '/api/fhir/CoverageEligibilityResponse?patient=pat-n-005');
    expect(found.body.entry.length).toBeGreaterThan(0);
    expect(found.body.entry[0].resource).toMatchObject({
      outcome: 'error',
      error: [{ code: { coding: [{ code: expect.any(String) }] } }],
    });
  });
});

describe('CDS Hooks in sandbox without CDS_CLIENTS: the sandbox EHR is the client of each demo clinic', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("signs calls with its own key, bound to the signed-in user's clinic", async () => {
    const north = await signIn(app, 'frontdesk@northside.test');
    const minted = await north.request('POST', '/api/sandbox-ehr/cds-token', { json: { service: 'coverage-check' } });
    expect(minted.status).toBe(200);
    expect(minted.body.aud).toBe(`${app.url}/cds-services/coverage-check`);
    const client = new HttpClient(app.url);
    const res = await client.request('POST', '/cds-services/coverage-check', {
      json: appointmentBook('DEMO-ACTIVE-N001'),
      headers: { authorization: `Bearer ${minted.body.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.body.cards).toEqual([expect.objectContaining({ indicator: 'info' })]);

    // Southside's sandbox issuer is bound to Southside: Northside's patient is not found there.
    const south = await signIn(app, 'admin@southside.test');
    const southToken = await south.request('POST', '/api/sandbox-ehr/cds-token', {
      json: { service: 'coverage-check' },
    });
    const southCall = await client.request('POST', '/cds-services/coverage-check', {
      json: appointmentBook('DEMO-ACTIVE-N001'),
      headers: { authorization: `Bearer ${southToken.body.token}` },
    });
    expect(southCall.body.cards).toEqual([
      expect.objectContaining({ indicator: 'info', summary: 'Patient not found in Southside Clinic' }),
    ]);
    // A token is for one call.
    const replay = await client.request('POST', '/cds-services/coverage-check', {
      json: appointmentBook('DEMO-ACTIVE-N001'),
      headers: { authorization: `Bearer ${minted.body.token}` },
    });
    expect(replay.status).toBe(401);
    expect(
      (
        await new HttpClient(app.url).request('POST', '/api/sandbox-ehr/cds-token', {
          json: { service: 'coverage-check' },
        })
      ).status,
    ).toBe(401);
  });
});

describe('CDS Hooks in production without a knowledge base', () => {
  let app: TestApp;
  let ehr: FakeCdsEhr;
  let clinicId: string;
  beforeAll(async () => {
    ehr = await startFakeCdsEhr({ https: true });
    clinicId = `clinic_cds_${randomUUID().slice(0, 8)}`;
    app = await startApp({
      env: {
        SVC_ENV: 'production',
        NODE_EXTRA_CA_CERTS: ehr.caFile,
        CDS_CLIENTS: JSON.stringify({ [ehr.issuer]: { jwksUrl: ehr.jwksUrl, clinicId } }),
      },
    });
    const tenant = await createTenant(app.db, 'Cds', { clinicId });
    await createPatient(app.db, tenant, { memberId: 'PROD-MEMBER-1', payerId: AETNA });
  });
  afterAll(async () => {
    await app?.stop();
    await ehr?.close();
  });

  it('answers coverage-requirements 501 NOT_CONFIGURED with zero calls, while coverage-check keeps answering', async () => {
    const client = new HttpClient(app.url);
    const res = await client.request('POST', '/cds-services/coverage-requirements', {
      json: orderSign('PROD-MEMBER-1', ['72148']),
      headers: { authorization: `Bearer ${await ehr.sign({ aud: `${app.url}/cds-services/coverage-requirements` })}` },
    });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 501,
      body: {
        code: 'NOT_CONFIGURED',
        message: 'The coverage rules knowledge base is not configured',
        correlationId: expect.any(String),
      },
    });
    expect(ehr.requests).toEqual([]);

    const check = await client.request('POST', '/cds-services/coverage-check', {
      json: appointmentBook('PROD-MEMBER-1'),
      headers: { authorization: `Bearer ${await ehr.sign({ aud: `${app.url}/cds-services/coverage-check` })}` },
    });
    expect(check.status).toBe(200);
    // Production has no sandbox payer and no CORE here: the card says the coverage could not be checked.
    expect(check.body.cards).toEqual([expect.objectContaining({ indicator: 'warning' })]);
    expect(ehr.knowledgeBaseCalls()).toBe(0);
    expect(ehr.jwksCalls()).toBe(1);
  });

  it('fetches the EHR key set once for calls that arrive together before it is cached', async () => {
    const fresh = await startApp({
      env: {
        SVC_ENV: 'production',
        NODE_EXTRA_CA_CERTS: ehr.caFile,
        CDS_CLIENTS: JSON.stringify({ [ehr.issuer]: { jwksUrl: ehr.jwksUrl, clinicId } }),
      },
      reuse: app.database,
    });
    try {
      const before = ehr.jwksCalls();
      const client = new HttpClient(fresh.url);
      const aud = `${fresh.url}/cds-services/coverage-check`;
      const answers = await Promise.all(
        Array.from({ length: 6 }, async () =>
          client.request('POST', '/cds-services/coverage-check', {
            json: appointmentBook('PROD-MEMBER-1'),
            headers: { authorization: `Bearer ${await ehr.sign({ aud })}` },
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
      expect(ehr.jwksCalls() - before).toBe(1);
    } finally {
      await fresh.stop();
    }
  });

  it('answers 501 NOT_CONFIGURED to a call in production without CDS_CLIENTS, and still serves discovery', async () => {
    const bare = await startApp({ env: { SVC_ENV: 'production' }, reuse: app.database });
    try {
      const client = new HttpClient(bare.url);
      expect((await client.request('GET', '/cds-services')).status).toBe(200);
      const res = await client.request('POST', '/cds-services/coverage-check', {
        json: appointmentBook('PROD-MEMBER-1'),
        headers: { authorization: 'Bearer x.y.z' },
      });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 501, code: 'NOT_CONFIGURED' });
    } finally {
      await bare.stop();
    }
  });

  it('refuses an http CDS_KNOWLEDGE_BASE_URL in production at start-up', async () => {
    await expect(
      startApp({
        env: { SVC_ENV: 'production', CDS_KNOWLEDGE_BASE_URL: 'http://rules.example.test/kb.json' },
        reuse: app.database,
      }),
    ).rejects.toThrow(/CDS_KNOWLEDGE_BASE_URL/);
  });
});
