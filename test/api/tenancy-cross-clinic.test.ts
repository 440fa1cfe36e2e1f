// Tenancy matrix, clinic half: Southside's admin (every scope, a valid step-up claim) aims every session
// endpoint at Northside's resources. Requests naming a Northside resource are refused (403/404 as DECISIONS.md
// rules), lists show only Southside's own, and no response body carries a Northside id, name or member id.
// Every session endpoint must have a probe here: a route added later fails the completeness check until it has.
import { createHash, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@/lib/api/registry';
import { keyedJobId } from '@/lib/background/keyed-job-id';
import { startApp, type TestApp } from '../support/app';
import { stepUpHeader } from '../support/step-up-claim';
import { signIn, type HttpClient } from '../support/http';
import { claimPayment, remittanceOf, x12Of } from '../support/remittances';
import { insertClaimedJob } from '../support/jobs';

type Probe = { path: string; json?: unknown; expect: 'denied' | 'own-data-only' };

const today = new Date().toISOString().slice(0, 10);
const inAnHour = new Date(Date.now() + 3600_000);

// Northside resources made for the probes (the demo tenant brings patients, bills and pools).
const N = {
  claim: 'claim_north_probe',
  instruction: 'instr_north_probe',
  connection: 'conn_north_probe',
  state: 'north-state-value-probe',
  fhirPatient: 'north-fhir-patient',
  job: 'job_north_probe',
  file: 'file_north_probe',
  passkey: 'cred-north-probe',
  webhookEndpoint: 'we_north_probe',
  delivery: 'dlv_north_probe',
  batch: 'pbat_north_probe',
  eraPosting: 'erap_north_probe',
};

const PROBES: Record<string, Probe[]> = {
  'GET /api/appointments': [{ path: `/api/appointments?date=${today}`, expect: 'own-data-only' }],
  'GET /api/auth/step-up': [{ path: '/api/auth/step-up', expect: 'own-data-only' }],
  'POST /api/auth/step-up': [
    { path: '/api/auth/step-up', json: { factor: 'password', password: 'wrong-password' }, expect: 'own-data-only' },
  ],
  'GET /api/auth/mfa': [{ path: '/api/auth/mfa', expect: 'own-data-only' }],
  'POST /api/auth/mfa': [
    { path: '/api/auth/mfa', json: { action: 'disable', token: '123456' }, expect: 'own-data-only' },
  ],
  'POST /api/auth/mfa/backup-codes': [{ path: '/api/auth/mfa/backup-codes', expect: 'own-data-only' }],
  'POST /api/auth/webauthn/register': [
    { path: '/api/auth/webauthn/register', json: { step: 'options' }, expect: 'own-data-only' },
  ],
  'GET /api/auth/webauthn/credentials': [{ path: '/api/auth/webauthn/credentials', expect: 'own-data-only' }],
  'DELETE /api/auth/webauthn/credentials/{id}': [
    { path: `/api/auth/webauthn/credentials/${N.passkey}`, expect: 'denied' },
  ],
  'POST /api/eligibility/verify': [
    {
      path: '/api/eligibility/verify',
      expect: 'denied',
      json: {
        patientId: 'pat_n_001',
        firstName: 'Avery',
        lastName: 'Northside001',
        dob: '1971-02-11',
        memberId: 'DEMO-ACTIVE-N001',
        payerName: 'Aetna',
        npi: '1234567893',
      },
    },
  ],
  'POST /api/eligibility/roster': [
    {
      path: '/api/eligibility/roster',
      json: { appointments: [{ patientId: 'pat_n_001', start: `${today}T09:00:00Z` }] },
      expect: 'denied',
    },
  ],
  'GET /api/bills/{id}': [{ path: '/api/bills/bill_n_001', expect: 'denied' }],
  'GET /api/bills/{id}/statement': [{ path: '/api/bills/bill_n_001/statement', expect: 'denied' }],
  'POST /api/claims/submit': [
    {
      path: '/api/claims/submit',
      json: { patientId: 'pat_n_001', totalCharge: 125.5, serviceDate: today },
      expect: 'denied',
    },
    { path: '/api/claims/submit', json: { claimId: N.claim }, expect: 'denied' },
  ],
  'PUT /api/patients/{id}/coverage': [
    {
      path: '/api/patients/pat_n_001/coverage',
      json: { payerId: '87726', memberId: 'SOUTH-OVERWRITE' },
      expect: 'denied',
    },
  ],
  'GET /api/patients': [
    { path: '/api/patients?limit=100', expect: 'own-data-only' },
    { path: '/api/patients?name=Northside001', expect: 'own-data-only' },
    { path: '/api/patients?memberId=DEMO-ACTIVE-N001', expect: 'own-data-only' },
  ],
  'GET /api/patients/{id}': [{ path: '/api/patients/pat_n_001', expect: 'denied' }],
  'GET /api/clinic': [{ path: '/api/clinic', expect: 'own-data-only' }],
  // CDS Hooks (issue #23): the feedback counts and the sandbox EHR's call token are the caller's clinic's only.
  'GET /api/cds-hooks/feedback': [{ path: '/api/cds-hooks/feedback', expect: 'own-data-only' }],
  'POST /api/sandbox-ehr/cds-token': [
    { path: '/api/sandbox-ehr/cds-token', json: { service: 'coverage-check' }, expect: 'own-data-only' },
  ],
  // Southside's own zone again: the PATCH can only ever reach the caller's clinic.
  'PATCH /api/clinic': [{ path: '/api/clinic', json: { timeZone: 'America/Los_Angeles' }, expect: 'own-data-only' }],
  'GET /api/claims': [
    { path: '/api/claims', expect: 'own-data-only' },
    { path: '/api/claims?patientId=pat_n_001', expect: 'denied' },
  ],
  'POST /api/claims': [
    {
      path: '/api/claims',
      // A body that obeys the claim body rules, so only the patient's clinic can refuse it.
      json: {
        patientId: 'pat_n_001',
        serviceDate: today,
        diagnoses: ['J02.9'],
        lines: [{ procedureCode: '99213', diagnosisPointers: [1], units: 1, chargeCents: 100 }],
      },
      expect: 'denied',
    },
  ],
  'GET /api/claims/{id}': [{ path: `/api/claims/${N.claim}`, expect: 'denied' }],
  'PATCH /api/claims/{id}': [{ path: `/api/claims/${N.claim}`, json: { placeOfService: '22' }, expect: 'denied' }],
  'POST /api/claims/{id}/scrub': [{ path: `/api/claims/${N.claim}/scrub`, expect: 'denied' }],
  'GET /api/claims/scrub-edits': [{ path: '/api/claims/scrub-edits', expect: 'own-data-only' }],
  'GET /api/claims/patients': [
    { path: '/api/claims/patients?q=Northside001', expect: 'own-data-only' },
    { path: '/api/claims/patients?q=pat_n_001', expect: 'own-data-only' },
  ],
  'GET /api/claims/{id}/status': [
    { path: `/api/claims/${N.claim}/status`, expect: 'denied' },
    { path: `/api/claims/${N.claim}/status?refresh=true`, expect: 'denied' },
  ],
  'POST /api/claims/{id}/appeal': [{ path: `/api/claims/${N.claim}/appeal`, json: { reason: 'x' }, expect: 'denied' }],
  'POST /api/claims/{id}/correct': [
    { path: `/api/claims/${N.claim}/correct`, json: { placeOfService: '22' }, expect: 'denied' },
  ],
  'POST /api/claims/{id}/void': [{ path: `/api/claims/${N.claim}/void`, json: { reason: 'probe' }, expect: 'denied' }],
  'POST /api/claims/{id}/secondary': [{ path: `/api/claims/${N.claim}/secondary`, json: {}, expect: 'denied' }],
  // The payout account and the batch list are the caller's clinic's only; a batch naming Northside's instruction
  // is refused (422) as "not an instruction of this clinic".
  'GET /api/clinic/payout-account': [{ path: '/api/clinic/payout-account', expect: 'own-data-only' }],
  'PUT /api/clinic/payout-account': [
    {
      path: '/api/clinic/payout-account',
      json: { routingNumber: '011000015', accountNumber: '12345678', accountType: 'checking', holderName: 'Probe' },
      expect: 'own-data-only',
    },
  ],
  'GET /api/settlement/batches': [{ path: '/api/settlement/batches', expect: 'own-data-only' }],
  'POST /api/settlement/batches': [
    { path: '/api/settlement/batches', json: { instructionIds: [N.instruction] }, expect: 'own-data-only' },
  ],
  'GET /api/settlement/batches/{id}': [{ path: `/api/settlement/batches/${N.batch}`, expect: 'denied' }],
  'GET /api/settlement/batches/{id}/file': [{ path: `/api/settlement/batches/${N.batch}/file`, expect: 'denied' }],
  'POST /api/settlement/batches/{id}/release': [
    { path: `/api/settlement/batches/${N.batch}/release`, expect: 'denied' },
  ],
  'GET /api/dashboard/ar-aging': [{ path: '/api/dashboard/ar-aging', expect: 'own-data-only' }],
  'GET /api/dashboard/collections': [{ path: '/api/dashboard/collections', expect: 'own-data-only' }],
  'GET /api/dashboard/denials': [{ path: '/api/dashboard/denials', expect: 'own-data-only' }],
  'GET /api/dashboard/clean-claims': [{ path: '/api/dashboard/clean-claims', expect: 'own-data-only' }],
  'GET /api/dashboard/days-in-ar': [{ path: '/api/dashboard/days-in-ar', expect: 'own-data-only' }],
  'GET /api/home': [{ path: '/api/home', expect: 'own-data-only' }],
  'POST /api/claims/{id}/write-off': [
    { path: `/api/claims/${N.claim}/write-off`, json: { amountCents: 1, reason: 'x' }, expect: 'denied' },
  ],
  'GET /api/claims/{id}/transmissions': [{ path: `/api/claims/${N.claim}/transmissions`, expect: 'denied' }],
  'POST /api/settlement/instructions': [
    {
      path: '/api/settlement/instructions',
      json: { poolId: 'pool_n_001', advanceAmountCents: 1000, feeBps: 100, reserveBps: 100 },
      expect: 'denied',
    },
  ],
  'GET /api/settlement/overview': [{ path: '/api/settlement/overview', expect: 'own-data-only' }],
  'GET /api/settlement/instructions/{id}': [
    { path: `/api/settlement/instructions/${N.instruction}`, expect: 'denied' },
  ],
  'POST /api/settlement/instructions/{id}/sign': [
    { path: `/api/settlement/instructions/${N.instruction}/sign`, expect: 'denied' },
  ],
  'POST /api/settlement/console/{id}/execute': [
    { path: `/api/settlement/console/${N.instruction}/execute`, json: { railReference: 'probe' }, expect: 'denied' },
  ],
  // A gate decision is recorded for the caller's clinic only; Northside's encounter ids are opaque strings here.
  'POST /api/settlement/gate/{encounterId}': [{ path: '/api/settlement/gate/enc-probe', expect: 'own-data-only' }],
  'GET /api/reconciliation/variances': [{ path: '/api/reconciliation/variances', expect: 'own-data-only' }],
  'GET /api/emr-sync/connections': [{ path: '/api/emr-sync/connections', expect: 'own-data-only' }],
  'POST /api/emr-sync/connections': [
    { path: '/api/emr-sync/connections', json: { vendor: 'generic-fhir' }, expect: 'own-data-only' },
  ],
  'PATCH /api/emr-sync/connections/{id}': [
    { path: `/api/emr-sync/connections/${N.connection}`, json: { clientId: 'stolen' }, expect: 'denied' },
  ],
  'GET /api/emr-sync/authorize': [{ path: `/api/emr-sync/authorize?connectionId=${N.connection}`, expect: 'denied' }],
  'GET /api/emr-sync/callback': [{ path: `/api/emr-sync/callback?state=${N.state}&code=probe`, expect: 'denied' }],
  'POST /api/emr-sync/smart/pull': [
    { path: '/api/emr-sync/smart/pull', json: { connectionId: N.connection }, expect: 'denied' },
  ],
  'POST /api/emr-sync/partner/pull': [
    { path: '/api/emr-sync/partner/pull', json: { date: today }, expect: 'own-data-only' },
  ],
  'GET /api/fhir/{type}': [{ path: '/api/fhir/Patient', expect: 'own-data-only' }],
  'GET /api/fhir/{type}/{id}': [{ path: `/api/fhir/Patient/${N.fhirPatient}`, expect: 'denied' }],
  'GET /api/fhir/$export': [{ path: '/api/fhir/$export', expect: 'own-data-only' }],
  'GET /api/fhir/Patient/$export': [{ path: '/api/fhir/Patient/$export', expect: 'own-data-only' }],
  'GET /api/fhir/bulk-status/{jobId}': [{ path: `/api/fhir/bulk-status/${N.job}`, expect: 'denied' }],
  'DELETE /api/fhir/bulk-status/{jobId}': [{ path: `/api/fhir/bulk-status/${N.job}`, expect: 'denied' }],
  'GET /api/fhir/bulk-files/{fileId}': [{ path: `/api/fhir/bulk-files/${N.file}`, expect: 'denied' }],
  'POST /api/fhir/$export': [
    { path: '/api/fhir/$export', json: { resourceType: 'Parameters' }, expect: 'own-data-only' },
  ],
  'POST /api/fhir/Patient/$export': [
    { path: '/api/fhir/Patient/$export', json: { resourceType: 'Parameters' }, expect: 'own-data-only' },
  ],
  'POST /api/emr-sync/connections/{id}/pull': [
    { path: `/api/emr-sync/connections/${N.connection}/pull`, json: {}, expect: 'denied' },
  ],
  'POST /api/sandbox-ehr/authorize': [{ path: '/api/sandbox-ehr/authorize', json: {}, expect: 'own-data-only' }],
  // Remittances: an 835 naming Northside's claim is refused (422) and posts nothing there (checked below).
  'POST /api/remittances': [
    {
      path: '/api/remittances',
      json: {
        x12: x12Of(
          remittanceOf([claimPayment(N.claim, '1', [{ procedureCode: '99213', chargeCents: 100, adjustments: [] }])]),
        ),
      },
      expect: 'own-data-only',
    },
  ],
  'GET /api/remittances': [{ path: '/api/remittances', expect: 'own-data-only' }],
  'GET /api/remittances/postings': [{ path: '/api/remittances/postings', expect: 'own-data-only' }],
  'GET /api/remittances/{id}': [{ path: '/api/remittances/rem_north_probe', expect: 'denied' }],
  'GET /api/denials': [{ path: '/api/denials', expect: 'own-data-only' }],
  'GET /api/bills': [{ path: '/api/bills', expect: 'own-data-only' }],
  // Users and the audit log: Northside's users are not found (404), lists are Southside's own.
  'GET /api/users': [{ path: '/api/users', expect: 'own-data-only' }],
  'POST /api/users': [
    {
      path: '/api/users',
      json: { email: 'probe-south@example.test', scopes: ['claims:read'] },
      expect: 'own-data-only',
    },
  ],
  'PATCH /api/users/{id}': [
    { path: '/api/users/user_frontdesk_north', json: { scopes: ['claims:read'] }, expect: 'denied' },
  ],
  'POST /api/users/{id}/unlock': [{ path: '/api/users/user_frontdesk_north/unlock', expect: 'denied' }],
  'POST /api/users/{id}/reset-mfa': [{ path: '/api/users/user_mfa_north/reset-mfa', expect: 'denied' }],
  'POST /api/users/{id}/deactivate': [{ path: '/api/users/user_frontdesk_north/deactivate', expect: 'denied' }],
  'POST /api/auth/password': [
    {
      path: '/api/auth/password',
      json: { currentPassword: 'wrong-password', newPassword: 'a long new password' },
      expect: 'own-data-only',
    },
  ],
  // Southside's own refused probes are in its log with the ids it typed; sign-ins and a Northside user filter show
  // that nothing of Northside's comes back.
  'GET /api/audit': [
    { path: '/api/audit?action=sign-in', expect: 'own-data-only' },
    { path: '/api/audit?userId=user_admin_north', expect: 'own-data-only' },
  ],
  'GET /api/emr-sync/runs/{id}': [{ path: '/api/emr-sync/runs/run_north_probe', expect: 'denied' }],
  'POST /api/emr-sync/runs/{id}/cancel': [{ path: '/api/emr-sync/runs/run_north_probe/cancel', expect: 'denied' }],
  // Northside's export has a job on the engine; Southside's list never shows it and its retry is 404.
  'GET /api/jobs': [{ path: '/api/jobs', expect: 'own-data-only' }],
  'POST /api/jobs/{id}/retry': [{ path: `/api/jobs/${keyedJobId('bulk-export', N.job)}/retry`, expect: 'denied' }],
  'DELETE /api/emr-sync/connections/{id}': [{ path: `/api/emr-sync/connections/${N.connection}`, expect: 'denied' }],
  'GET /api/webhook-endpoints': [{ path: '/api/webhook-endpoints', expect: 'own-data-only' }],
  'POST /api/webhook-endpoints': [
    {
      path: '/api/webhook-endpoints',
      json: { url: 'http://127.0.0.1:9/hooks', events: ['*'] },
      expect: 'own-data-only',
    },
  ],
  'GET /api/webhook-endpoints/{id}': [{ path: `/api/webhook-endpoints/${N.webhookEndpoint}`, expect: 'denied' }],
  'PATCH /api/webhook-endpoints/{id}': [
    { path: `/api/webhook-endpoints/${N.webhookEndpoint}`, json: { status: 'disabled' }, expect: 'denied' },
  ],
  'DELETE /api/webhook-endpoints/{id}': [{ path: `/api/webhook-endpoints/${N.webhookEndpoint}`, expect: 'denied' }],
  'POST /api/webhook-endpoints/{id}/rotate-secret': [
    { path: `/api/webhook-endpoints/${N.webhookEndpoint}/rotate-secret`, expect: 'denied' },
  ],
  'POST /api/webhook-endpoints/{id}/test': [
    { path: `/api/webhook-endpoints/${N.webhookEndpoint}/test`, expect: 'denied' },
  ],
  'GET /api/webhook-endpoints/{id}/deliveries': [
    { path: `/api/webhook-endpoints/${N.webhookEndpoint}/deliveries`, expect: 'denied' },
  ],
  'POST /api/webhook-endpoints/{id}/deliveries/{deliveryId}/resend': [
    { path: `/api/webhook-endpoints/${N.webhookEndpoint}/deliveries/${N.delivery}/resend`, expect: 'denied' },
  ],
};

const MARKERS = [
  'clinic_north',
  'Northside',
  'pat_n_0',
  'DEMO-ACTIVE-N',
  'DEMO-INACTIVE-N',
  'bill_n_',
  'pool_n_',
  'user_admin_north',
  'admin@northside',
  ...Object.values(N),
];

async function seedNorthside(app: TestApp) {
  const db = app.db;
  await db.webhookEndpoint.create({
    data: {
      id: N.webhookEndpoint,
      clinicId: 'clinic_north',
      // Disabled: the probe's delivery row is never sent.
      url: 'https://north.example/hooks',
      events: ['*'],
      status: 'disabled',
      secretSealed: 'v1.x.y.z',
    },
  });
  await db.outboundDelivery.create({
    data: {
      id: N.delivery,
      eventId: 'evt_north_probe',
      endpointId: N.webhookEndpoint,
      clinicId: 'clinic_north',
      objectId: N.webhookEndpoint,
      type: 'webhook.test',
      status: 'delivered',
      nextAttemptAt: new Date(),
      createdAt: new Date(),
    },
  });
  await db.webAuthnCredential.create({
    data: {
      id: N.passkey,
      userId: 'user_admin_north',
      publicKey: Buffer.from([1, 2, 3]),
      transports: [],
      deviceType: 'singleDevice',
      backedUp: false,
    },
  });
  await db.claim.create({
    data: {
      id: N.claim,
      clinicId: 'clinic_north',
      patientId: 'pat_n_001',
      totalChargeCents: 12_550n,
      serviceDate: today,
      status: 'draft',
      correlationId: 'probe',
    },
  });
  await db.settlementInstruction.create({
    data: {
      id: N.instruction,
      clinicId: 'clinic_north',
      poolId: 'pool_n_001',
      status: 'SIGNED',
      advanceAmountCents: 10_000n,
      feeBps: 100,
      reserveBps: 100,
      poolCents: 10_000n,
      feeCents: 100n,
      reserveCents: 100n,
      residualCents: 9_800n,
      createdBy: 'user_admin_north',
      expiresAt: inAnHour,
      correlationId: 'probe',
    },
  });
  await db.emrConnection.create({
    data: {
      id: N.connection,
      clinicId: 'clinic_north',
      vendor: 'smart-backend',
      status: 'pending',
      clientId: 'north-client',
    },
  });
  await db.oAuthState.create({
    data: {
      stateHash: createHash('sha256').update(N.state).digest('hex'),
      clinicId: 'clinic_north',
      userId: 'user_admin_north',
      connectionId: N.connection,
      codeVerifierSealed: 'v1.x.y.z',
      expiresAt: inAnHour,
    },
  });
  const patient = { resourceType: 'Patient', id: N.fhirPatient, name: [{ family: 'Northside001', given: ['Avery'] }] };
  await db.fhirResource.create({
    data: {
      clinicId: 'clinic_north',
      resourceType: 'Patient',
      resourceId: N.fhirPatient,
      lastUpdated: new Date(),
      contentHash: 'probe',
      resource: patient,
    },
  });
  await db.bulkExportJob.create({
    data: {
      id: N.job,
      clinicId: 'clinic_north',
      userId: 'user_admin_north',
      level: 'system',
      types: ['Patient'],
      status: 'completed',
      request: '/api/fhir/$export',
      transactionTime: new Date(),
      correlationId: 'probe',
      finishedAt: new Date(),
      files: { create: { id: N.file, resourceType: 'Patient', count: 1, ndjson: JSON.stringify(patient) } },
    },
  });
  await db.eraPosting.create({
    data: {
      id: N.eraPosting,
      clinicId: 'clinic_north',
      claimsTotal: 600,
      correlationId: 'probe',
      queuedAt: new Date(),
    },
  });
  await insertClaimedJob(db, {
    queue: 'bulk-export',
    key: N.job,
    data: { exportId: N.job, clinicId: 'clinic_north', correlationId: 'probe' },
    retryCount: 0,
    retryLimit: 2,
    heartbeatSeconds: 3600,
    heartbeatAgoSeconds: 0,
  });
}

describe('cross-clinic access', () => {
  let app: TestApp;
  let south: HttpClient;
  let stepUp: Record<string, string>;

  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const unreachable = 'http://127.0.0.1:9';
    app = await startApp({
      env: {
        EMR_VENDORS: JSON.stringify(
          Object.fromEntries(
            ['generic-fhir', 'browser-oauth', 'smart-backend', 'partner-api'].map((v) => [
              v,
              {
                authorizeUrl: `${unreachable}/authorize`,
                tokenUrl: `${unreachable}/token`,
                fhirBaseUrl: `${unreachable}/fhir`,
              },
            ]),
          ),
        ),
        SMART_CLIENT_ID: 'probe-client',
        SMART_KEY_ID: 'probe-key',
        SMART_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      },
    });
    await seedNorthside(app);
    south = await signIn(app, 'admin@southside.test');
    stepUp = await stepUpHeader(app, 'admin@southside.test');
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('has a probe for every session endpoint', () => {
    const missing = ENDPOINTS.filter((e) => e.auth === 'session' && !PROBES[`${e.method} ${e.path}`]).map(
      (e) => `${e.method} ${e.path}`,
    );
    expect(missing).toEqual([]);
  });

  it("refuses Northside's resources to Southside and never shows Northside's ids, names or member ids", async () => {
    for (const e of ENDPOINTS.filter((x) => x.auth === 'session')) {
      for (const probe of PROBES[`${e.method} ${e.path}`] ?? []) {
        const res = await south.request(e.method, probe.path, {
          ...(probe.json !== undefined ? { json: probe.json } : {}),
          headers: stepUp,
        });
        const where = `${e.method} ${probe.path}`;
        if (probe.expect === 'denied')
          expect({ where, status: res.status }).toEqual({ where, status: expect.toBeOneOf([403, 404]) });
        else
          expect({ where, status: res.status < 500 || [501, 502, 503].includes(res.status) }).toEqual({
            where,
            status: true,
          });
        // What Southside itself sent may come back (e.g. a validation issue); anything else of Northside's may not.
        const sent = JSON.stringify(probe.json ?? '') + probe.path;
        const leaked = MARKERS.filter((m) => !sent.includes(m) && res.text.includes(m));
        expect({ where, leaked }).toEqual({ where, leaked: [] });
      }
    }
  });

  it("left Northside's resources untouched", async () => {
    expect((await app.db.claim.findUniqueOrThrow({ where: { id: N.claim } })).writtenOffCents).toBe(0n);
    expect(await app.db.webAuthnCredential.count({ where: { id: N.passkey } })).toBe(1);
    expect(await app.db.webhookEndpoint.findUniqueOrThrow({ where: { id: N.webhookEndpoint } })).toMatchObject({
      status: 'disabled',
      secretSealed: 'v1.x.y.z',
    });
    expect(await app.db.outboundDelivery.count({ where: { endpointId: N.webhookEndpoint } })).toBe(1);
    expect((await app.db.settlementInstruction.findUniqueOrThrow({ where: { id: N.instruction } })).status).toBe(
      'SIGNED',
    );
    expect(
      await app.db.user.findMany({
        where: { id: { in: ['user_frontdesk_north', 'user_mfa_north'] } },
        select: { deactivatedAt: true, mfaEnabled: true },
        orderBy: { id: 'asc' },
      }),
    ).toEqual([
      { deactivatedAt: null, mfaEnabled: false },
      { deactivatedAt: null, mfaEnabled: true },
    ]);
    expect((await app.db.user.findUniqueOrThrow({ where: { id: 'user_frontdesk_north' } })).scopes).toEqual([
      'eligibility:read',
      'patients:read',
      'appointments:read',
      'claims:read',
    ]);
    expect((await app.db.emrConnection.findUniqueOrThrow({ where: { id: N.connection } })).clientId).toBe(
      'north-client',
    );
    expect((await app.db.oAuthState.findFirstOrThrow({ where: { connectionId: N.connection } })).consumedAt).toBeNull();
    expect((await app.db.bulkExportJob.findUniqueOrThrow({ where: { id: N.job } })).status).toBe('completed');
    expect((await app.db.claim.findUniqueOrThrow({ where: { id: N.claim } })).status).toBe('draft');
    expect(
      await app.db.patient.findUniqueOrThrow({
        where: { id: 'pat_n_001' },
        select: { coverageMemberId: true, coveragePayerId: true },
      }),
    ).toEqual({ coverageMemberId: 'DEMO-ACTIVE-N001', coveragePayerId: '60054' });
  });
});
