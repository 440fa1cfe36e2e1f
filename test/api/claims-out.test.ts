// Claims out over real HTTP and PostgreSQL (issue #13): drafts and edits, every scrub edit firing and not firing,
// submission through the sandbox clearinghouse (each scenario, the later 835 included), a live CAQH CORE
// clearinghouse (a local fake that counts calls: batch 837P, 999 and 277CA retrieval, real-time 276/277), 502 with
// the claim unchanged, 503 in production with zero calls, status refresh, appeals with and without step-up,
// 50 concurrent submits of one key (one transmission), and tenancy on every route.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { stepUpHeader } from '../support/step-up-claim';
import { HttpClient, signIn } from '../support/http';
import { createPatient, createTenant, createUser, type TestTenant } from '../support/factories';
import {
  FAKE_CLEARINGHOUSE_ERROR_TEXT,
  clearinghouseEnv,
  startFakeClearinghouse,
  type FakeClearinghouse,
} from '../fakes/fake-clearinghouse';
import { until } from '../support/until';

const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const anyId = expect.any(String);
const NORTH: TestTenant = { orgId: 'org_demo', clinicId: 'clinic_north', clinicName: 'Northside Clinic' };

/** A date `days` before today (UTC), YYYY-MM-DD: past in every clinic's zone for days >= 2. */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
const SERVICE_DATE = daysAgo(3);

const ADDRESS = { line: ['10 Elm Street'], city: 'Albany', state: 'NY', postalCode: '12207' };

/** A patient whose records pass every edit: demographics, address, coverage on file and a fresh active check. */
async function readyPatient(
  app: TestApp,
  options: { tenant?: TestTenant; memberId?: string | null; eligible?: boolean } = {},
) {
  const tenant = options.tenant ?? NORTH;
  const memberId = options.memberId === undefined ? `DEMO-ACTIVE-${uid('m').slice(2).toUpperCase()}` : options.memberId;
  const patient = await createPatient(app.db, tenant, { memberId });
  await app.db.patient.update({ where: { id: patient.id }, data: { gender: 'female', address: ADDRESS } });
  if (options.eligible !== false && memberId) {
    await app.db.eligibilityCheck.create({
      data: {
        clinicId: tenant.clinicId,
        patientId: patient.id,
        userId: 'test',
        cacheKey: uid('ck'),
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
  }
  return patient;
}

/** Two lines, two diagnoses: 99213-25 $125.00 and 87880 $35.00. */
const claimBody = (patientId: string, overrides: Record<string, unknown> = {}) => ({
  patientId,
  serviceDate: SERVICE_DATE,
  placeOfService: '11',
  diagnoses: ['J02.9', 'R50.9'],
  lines: [
    { procedureCode: '99213', modifiers: ['25'], diagnosisPointers: [1, 2], units: 1, chargeCents: 12_500 },
    { procedureCode: '87880', diagnosisPointers: [1], units: 1, chargeCents: 3_500 },
  ],
  ...overrides,
});

describe('claims with the sandbox clearinghouse', () => {
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

  const createDraft = async (body: unknown, client = billing) => {
    const res = await client.post('/api/claims', body);
    expect(res.status, res.text).toBe(201);
    return res.body as { claimId: string; status: string };
  };
  const submit = (body: unknown, headers: Record<string, string> = {}) =>
    billing.post('/api/claims/submit', body, { headers: { ...stepUp, ...headers } });
  const transmissions = async (claimId: string) =>
    (await billing.get(`/api/claims/${claimId}/transmissions`)).body.transmissions as {
      direction: string;
      kind: string;
      x12: string;
      controlNumber: string;
    }[];

  it('creates a draft (201) with its lines and diagnoses, reads it back with its timeline, and edits it', async () => {
    const patient = await readyPatient(app);
    const draft = await billing.post('/api/claims', claimBody(patient.id));
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({
      patientId: patient.id,
      status: 'draft',
      totalChargeCents: 16_000,
      serviceDate: SERVICE_DATE,
      placeOfService: '11',
      diagnoses: ['J02.9', 'R50.9'],
      payerId: null,
      memberId: null,
      submittedAt: null,
      lines: [
        {
          position: 1,
          procedureCode: '99213',
          modifiers: ['25'],
          diagnosisPointers: [1, 2],
          units: 1,
          chargeCents: 12_500,
          serviceDate: null,
          paidCents: 0,
        },
        {
          position: 2,
          procedureCode: '87880',
          modifiers: [],
          diagnosisPointers: [1],
          units: 1,
          chargeCents: 3_500,
          serviceDate: null,
          paidCents: 0,
        },
      ],
    });
    const id = draft.body.claimId;
    const edited = await billing.patch(`/api/claims/${id}`, {
      lines: [{ procedureCode: '99214', diagnosisPointers: [1], units: 2, chargeCents: 9_000 }],
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ totalChargeCents: 9_000, lines: [{ procedureCode: '99214', units: 2 }] });
    const read = await billing.get(`/api/claims/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.timeline.map((e: { kind: string }) => e.kind)).toEqual(['created', 'edited']);
    expect(read.body.appeals).toEqual([]);

    // A creation key is single-use: the second draft with it is 409 and nothing more is created.
    const idempotencyKey = uid('key');
    expect((await billing.post('/api/claims', { ...claimBody(patient.id), idempotencyKey })).status).toBe(201);
    const again = await billing.post('/api/claims', { ...claimBody(patient.id), idempotencyKey });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await app.db.claim.count({ where: { patientId: patient.id } })).toBe(2);
  });

  it('lists the scrubber edits as data', async () => {
    const res = await billing.get('/api/claims/scrub-edits');
    expect(res.status).toBe(200);
    const ids = res.body.edits.map((e: { id: string }) => e.id);
    expect(ids).toEqual(expect.arrayContaining(['npi-check-digit', 'eligibility-verified', 'duplicate-claim']));
    expect(res.body.edits.every((e: { message: string }) => e.message.length > 10)).toBe(true);
  });

  it('a claim that passes every edit: the dry run reports nothing', async () => {
    const patient = await readyPatient(app);
    const { claimId } = await createDraft(claimBody(patient.id));
    const res = await billing.post(`/api/claims/${claimId}/scrub`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ issues: [] });
  });

  type Case = {
    edit: string;
    body?: (patientId: string) => Record<string, unknown>;
    patient?: { memberId?: string | null; eligible?: boolean; data?: Record<string, unknown> };
    before?: (patientId: string) => Promise<void>;
    /**
     * Changes the stored draft after it is created: the body rules refuse these at create and edit (400, test/api/
     * claim-body-rules.test.ts), so only a draft stored before those rules, or written around the API, breaks them.
     */
    stored?: (claimId: string) => Promise<void>;
  };
  const storeLines = (claimId: string, lines: Record<string, unknown>[], totalChargeCents?: bigint) =>
    app.db.$transaction(async (tx) => {
      await tx.claimLine.deleteMany({ where: { claimId } });
      await tx.claimLine.createMany({
        data: lines.map((l, i) => ({
          claimId,
          clinicId: 'clinic_north',
          position: i + 1,
          procedureCode: '99213',
          diagnosisPointers: [1],
          units: 1,
          chargeCents: 12_500n,
          ...l,
        })),
      });
      const sum = lines.reduce((total, l) => total + BigInt((l.chargeCents as bigint | undefined) ?? 12_500n), 0n);
      await tx.claim.update({ where: { id: claimId }, data: { totalChargeCents: totalChargeCents ?? sum } });
    });
  const line = (overrides: Record<string, unknown>) => ({
    procedureCode: '99213',
    diagnosisPointers: [1],
    units: 1,
    chargeCents: 12_500,
    ...overrides,
  });
  const CASES: Case[] = [
    { edit: 'coverage-on-file', patient: { memberId: null } },
    { edit: 'eligibility-verified', patient: { eligible: false } },
    {
      edit: 'duplicate-claim',
      before: async (patientId) => {
        const id = uid('clm');
        await app.db.claim.create({
          data: {
            id,
            clinicId: 'clinic_north',
            patientId,
            status: 'submitted',
            serviceDate: SERVICE_DATE,
            totalChargeCents: 16_000n,
            correlationId: 'setup',
            diagnoses: ['J02.9', 'R50.9'],
            lines: {
              create: [
                {
                  clinicId: 'clinic_north',
                  position: 1,
                  procedureCode: '99213',
                  modifiers: ['25'],
                  diagnosisPointers: [1, 2],
                  units: 1,
                  chargeCents: 12_500n,
                },
                {
                  clinicId: 'clinic_north',
                  position: 2,
                  procedureCode: '87880',
                  diagnosisPointers: [1],
                  units: 1,
                  chargeCents: 3_500n,
                },
              ],
            },
          },
        });
      },
    },
    { edit: 'npi-check-digit', body: (p) => claimBody(p, { renderingNpi: '1234567890' }) },
    { edit: 'demographics-complete', patient: { data: { address: null, gender: null } } },
    {
      edit: 'patient-relationship',
      patient: { data: { coverageRelationship: 'ZZ', coverageSubscriber: { firstName: 'Sam', lastName: 'Holder' } } },
    },
    {
      edit: 'diagnosis-count',
      stored: (id) => app.db.claim.update({ where: { id }, data: { diagnoses: [] } }).then(() => undefined),
    },
    { edit: 'diagnosis-code-shape', body: (p) => claimBody(p, { diagnoses: ['J02.9', '123'] }) },
    { edit: 'line-count', stored: (id) => storeLines(id, [], 0n) },
    { edit: 'procedure-code-shape', body: (p) => claimBody(p, { lines: [line({ procedureCode: '9921' })] }) },
    { edit: 'modifier-shape', body: (p) => claimBody(p, { lines: [line({ modifiers: ['2'] })] }) },
    { edit: 'diagnosis-pointers', stored: (id) => storeLines(id, [{ diagnosisPointers: [3] }]) },
    { edit: 'units-positive', stored: (id) => storeLines(id, [{ units: 0 }]) },
    { edit: 'charge-positive', stored: (id) => storeLines(id, [{ chargeCents: 0n }]) },
    // Issue 31 item 1: 50 lines of 1e11 cents once passed the scrubber.
    {
      edit: 'amount-limit',
      stored: (id) =>
        storeLines(
          id,
          Array.from({ length: 50 }, () => ({ chargeCents: 100_000_000_000n })),
        ),
    },
    { edit: 'total-equals-lines', body: (p) => claimBody(p, { totalCharge: '1.00' }) },
    { edit: 'service-date', body: (p) => claimBody(p, { lines: [line({ serviceDate: daysAgo(-3) })] }) },
    { edit: 'timely-filing', body: (p) => claimBody(p, { serviceDate: daysAgo(400) }) },
    { edit: 'place-of-service', body: (p) => claimBody(p, { placeOfService: '98' }) },
    { edit: 'x12-characters', patient: { data: { firstName: 'Ann*Marie' } } },
  ];

  it.each(CASES)('edit $edit fires on a claim that breaks it (dry run and submit), and nothing is sent', async (c) => {
    const patient = await readyPatient(app, c.patient);
    if (c.patient?.data) await app.db.patient.update({ where: { id: patient.id }, data: c.patient.data });
    await c.before?.(patient.id);
    const { claimId } = await createDraft(c.body ? c.body(patient.id) : claimBody(patient.id));
    await c.stored?.(claimId);
    const dry = await billing.post(`/api/claims/${claimId}/scrub`);
    expect(dry.status).toBe(200);
    expect(dry.body.issues.map((i: { edit: string }) => i.edit)).toContain(c.edit);
    for (const issue of dry.body.issues) expect(issue).toEqual({ path: anyId, message: anyId, edit: anyId });

    const res = await submit({ claimId });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      code: 'SCRUB_BLOCKED',
      message: 'The claim did not pass the scrubber; nothing was sent',
      correlationId: anyId,
      issues: dry.body.issues,
    });
    const after = await billing.get(`/api/claims/${claimId}`);
    expect(after.body.status).toBe('draft');
    expect(await transmissions(claimId)).toEqual([]);
  });

  it('edit provider-details fires for a clinic without its billing details, and not once they are set', async () => {
    const tenant = await createTenant(app.db, 'Bare');
    const user = await createUser(app.db, tenant, { scopes: ['claims:read', 'claims:write'] });
    const client = await signIn(app, user.email, user.password);
    const patient = await readyPatient(app, { tenant });
    const { claimId } = await createDraft(claimBody(patient.id), client);
    const bare = await client.post(`/api/claims/${claimId}/scrub`);
    expect(bare.body.issues.map((i: { path: string; edit: string }) => [i.edit, i.path])).toEqual([
      ['provider-details', 'billingProvider.taxonomyCode'],
      ['provider-details', 'billingProvider.taxId'],
      ['provider-details', 'billingProvider.address.line1'],
      ['provider-details', 'billingProvider.address.city'],
      ['provider-details', 'billingProvider.address.state'],
      ['provider-details', 'billingProvider.address.postalCode'],
    ]);
    await app.db.clinic.update({
      where: { id: tenant.clinicId },
      data: {
        billingTaxonomy: '261QP2300X',
        billingTaxId: '123456789',
        billingAddress: { line1: '1 Main Street', city: 'Albany', state: 'NY', postalCode: '122071234' },
      },
    });
    expect((await client.post(`/api/claims/${claimId}/scrub`)).body).toEqual({ issues: [] });
  });

  it('edit patient-control-number refuses a stored claim whose id is over 20 characters, and sends nothing', async () => {
    const patient = await readyPatient(app);
    // Ids made before the 20-character rule were clm_ and 32 hex characters.
    const claimId = `clm_${'0a1b2c3d'.repeat(4)}`;
    await app.db.claim.create({
      data: {
        id: claimId,
        clinicId: 'clinic_north',
        patientId: patient.id,
        status: 'draft',
        totalChargeCents: 12_500n,
        serviceDate: SERVICE_DATE,
        diagnoses: ['J02.9'],
        correlationId: 'test-setup',
        lines: {
          create: [
            {
              clinicId: 'clinic_north',
              position: 1,
              procedureCode: '99213',
              diagnosisPointers: [1],
              units: 1,
              chargeCents: 12_500n,
            },
          ],
        },
      },
    });
    const dry = await billing.post(`/api/claims/${claimId}/scrub`);
    expect(dry.body.issues).toEqual([
      {
        path: 'claimId',
        message: 'The claim id (CLM01, the patient control number) must be at most 20 characters',
        edit: 'patient-control-number',
      },
    ]);
    const res = await submit({ claimId });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('SCRUB_BLOCKED');
    expect(await transmissions(claimId)).toEqual([]);
  });

  it('the table above, provider-details and patient-control-number cover every edit the scrubber has', async () => {
    const edits = (await billing.get('/api/claims/scrub-edits')).body.edits.map((e: { id: string }) => e.id);
    expect([...CASES.map((c) => c.edit), 'provider-details', 'patient-control-number'].sort()).toEqual(
      [...edits].sort(),
    );
  });

  it('a claim breaking one rule gets exactly that issue, with its path, message and edit', async () => {
    const patient = await readyPatient(app);
    const { claimId } = await createDraft(claimBody(patient.id, { lines: [line({})] }));
    await storeLines(claimId, [{ units: 0 }]);
    const dry = await billing.post(`/api/claims/${claimId}/scrub`);
    expect(dry.body.issues).toEqual([
      { path: 'lines.0.units', message: 'Units must be a whole number above zero', edit: 'units-positive' },
    ]);
  });

  it('refuses an inline submit without lines or diagnoses with 422 SCRUB_BLOCKED and creates nothing', async () => {
    const patient = await readyPatient(app);
    const res = await submit({ patientId: patient.id, serviceDate: SERVICE_DATE, totalCharge: '10.00' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('SCRUB_BLOCKED');
    expect(res.body.issues.map((i: { edit: string }) => i.edit)).toEqual(
      expect.arrayContaining(['diagnosis-count', 'line-count', 'total-equals-lines']),
    );
    expect(await app.db.claim.count({ where: { patientId: patient.id } })).toBe(0);
  });

  it('accepted: inline submit sends a real 837P, the 999 and 277CA accept it, and the 835 pays it later', async () => {
    const patient = await readyPatient(app);
    const correlationId = uid('corr');
    const res = await submit(
      { ...claimBody(patient.id), totalCharge: '160.00', idempotencyKey: uid('key') },
      { 'x-correlation-id': correlationId },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      status: 'accepted',
      totalChargeCents: 16_000,
      payerId: '60054',
      memberId: patient.coverageMemberId,
      submittedAt: anyId,
      correlationId,
    });
    const claimId = res.body.claimId;
    const sent = await transmissions(claimId);
    expect(sent.map((t) => `${t.direction} ${t.kind}`)).toEqual(['out 837P', 'in 999', 'in 277CA']);
    expect(sent[0]!.x12).toMatch(/^ISA\*/);
    expect(sent[0]!.x12).toContain(`CLM*${claimId}*160*`);
    expect(sent[0]!.x12).toContain('SV1*HC:99213:25*125*UN*1***1:2~');
    const detail = await billing.get(`/api/claims/${claimId}`);
    expect(detail.body.timeline.map((e: { kind: string; toStatus: string | null }) => [e.kind, e.toStatus])).toEqual([
      ['created', 'draft'],
      ['sending', 'sending'], // recorded before the send (the outbox)
      ['999', 'submitted'],
      ['277CA', 'accepted'],
    ]);

    const paid = await until(
      async () => (await billing.get(`/api/claims/${claimId}`)).body,
      (claim) => claim.status !== 'accepted',
    );
    expect(['paid', 'partially_paid']).toContain(paid.status);
    expect(paid.paidCents).toBeGreaterThan(0);
    expect((await transmissions(claimId)).map((t) => t.kind)).toContain('835');
  });

  it('accepted with errors: a 999 E still submits it, the 277CA accepts it, and the reason is kept', async () => {
    const patient = await readyPatient(app, { memberId: `DEMO-CH-ERRORS-${uid('m').slice(2).toUpperCase()}` });
    const { claimId } = await createDraft(claimBody(patient.id));
    const res = await submit({ claimId });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('accepted');
    expect(res.body.statusReason).toMatch(/^Accepted with errors \(999 E\)/);
    const detail = await billing.get(`/api/claims/${claimId}`);
    expect(detail.body.timeline.find((e: { kind: string }) => e.kind === '999').detail.acknowledgment).toBe('E');
    // What went to the payer is not rewritten.
    const edit = await billing.patch(`/api/claims/${claimId}`, { placeOfService: '22' });
    expect(edit.status).toBe(409);
    expect(edit.body).toEqual({
      code: 'NOT_EXECUTABLE',
      message: 'Only a draft claim can be edited; this one is accepted',
      correlationId: anyId,
    });
  });

  it('rejected at the front end: the 277CA rejects it with its reason; an edit reopens it as a draft', async () => {
    const patient = await readyPatient(app, { memberId: `DEMO-CH-REJECT-${uid('m').slice(2).toUpperCase()}` });
    const { claimId } = await createDraft(claimBody(patient.id));
    const res = await submit({ claimId });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('rejected');
    expect(res.body.statusReason).toMatch(/^Rejected by the payer \(277CA\): Rejected for [a-z ]+: .*\[STC A[3-8]:/);
    expect((await transmissions(claimId)).map((t) => t.kind)).toEqual(['837P', '999', '277CA']);
    const status = await billing.get(`/api/claims/${claimId}/status`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ claimId, status: 'rejected', refreshed: false, correlationId: anyId });
    expect(status.body.history).toEqual([expect.objectContaining({ kind: '277CA', accepted: false })]);

    const reopened = await billing.patch(`/api/claims/${claimId}`, { placeOfService: '22' });
    expect(reopened.status, reopened.text).toBe(200);
    expect(reopened.body).toMatchObject({ status: 'draft', placeOfService: '22' });
    const again = await billing.patch(`/api/claims/${claimId}`, { placeOfService: '11' });
    expect(again.status).toBe(200);
  });

  it('deny later: accepted, the 835 denies it (CO-50), and an appeal needs step-up and a denied claim', async () => {
    const patient = await readyPatient(app, { memberId: `DEMO-CH-DENY-${uid('m').slice(2).toUpperCase()}` });
    const { claimId } = await createDraft(claimBody(patient.id));
    expect((await submit({ claimId })).body.status).toBe('accepted');

    const early = await billing.post(`/api/claims/${claimId}/appeal`, { reason: 'Too soon' }, { headers: stepUp });
    expect(early.status).toBe(409);
    expect(early.body).toEqual({
      code: 'NOT_EXECUTABLE',
      message: 'Only a denied or partially paid claim can be appealed; this one is accepted',
      correlationId: anyId,
    });

    const denied = await until(
      async () => (await billing.get(`/api/claims/${claimId}`)).body,
      (claim) => claim.status !== 'accepted',
    );
    expect(denied.status).toBe('denied');

    const withoutStepUp = await billing.post(`/api/claims/${claimId}/appeal`, { reason: 'Medically necessary' });
    expect(withoutStepUp.status).toBe(401);
    expect(withoutStepUp.body.code).toBe('STEP_UP_REQUIRED');
    expect(await app.db.claimAppeal.count({ where: { claimId } })).toBe(0);

    const correlationId = uid('corr');
    const appeal = await billing.post(
      `/api/claims/${claimId}/appeal`,
      { reason: 'Medically necessary: notes attached', attachments: [{ name: 'visit-notes.pdf' }] },
      { headers: { ...stepUp, 'x-correlation-id': correlationId } },
    );
    expect(appeal.status, appeal.text).toBe(200);
    expect(appeal.body).toEqual({
      appealId: anyId,
      claimId,
      status: 'appealed',
      reason: 'Medically necessary: notes attached',
      attachments: [{ name: 'visit-notes.pdf' }],
      createdBy: anyId,
      correlationId,
      createdAt: anyId,
    });
    const detail = await billing.get(`/api/claims/${claimId}`);
    expect(detail.body.status).toBe('appealed');
    expect(detail.body.appeals).toHaveLength(1);
    expect(detail.body.timeline.at(-1)).toMatchObject({ kind: 'appeal', fromStatus: 'denied', toStatus: 'appealed' });
    const twice = await billing.post(`/api/claims/${claimId}/appeal`, { reason: 'again' }, { headers: stepUp });
    expect(twice.status).toBe(409);
  });

  it('status refresh sends a 276 and keeps the 277, echoing the correlation id', async () => {
    const patient = await readyPatient(app, { memberId: `DEMO-CH-ERRORS-${uid('m').slice(2).toUpperCase()}` });
    const { claimId } = await createDraft(claimBody(patient.id));
    expect((await submit({ claimId })).status).toBe(200);
    const correlationId = uid('corr');
    const res = await billing.get(`/api/claims/${claimId}/status?refresh=true`, {
      headers: { 'x-correlation-id': correlationId },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ claimId, refreshed: true, correlationId });
    expect(res.body.history.map((h: { kind: string }) => h.kind)).toEqual(['277CA', '277']);
    expect((await transmissions(claimId)).map((t) => `${t.direction} ${t.kind}`)).toEqual(
      expect.arrayContaining(['out 276', 'in 277']),
    );
    const draft = await createDraft(claimBody(patient.id));
    const never = await billing.get(`/api/claims/${draft.claimId}/status?refresh=true`);
    expect(never.status).toBe(409);
  });

  it('a dependent patient: the 837P carries the 2000C patient under the subscriber, and the 276 asks about them', async () => {
    const patient = await readyPatient(app);
    await app.db.patient.update({
      where: { id: patient.id },
      data: { coverageRelationship: '19', coverageSubscriber: { firstName: 'Sam', lastName: 'Holder' } },
    });
    const { claimId } = await createDraft(claimBody(patient.id));
    const res = await submit({ claimId });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('accepted');
    const [sent] = await transmissions(claimId);
    expect(sent!.x12).toContain('NM1*IL*1*Holder*Sam');
    expect(sent!.x12).toContain('PAT*19~');
    const status = await billing.get(`/api/claims/${claimId}/status?refresh=true`);
    expect(status.status, status.text).toBe(200);
    expect(status.body.history.map((h: { kind: string }) => h.kind)).toEqual(['277CA', '277']);
  });

  it('sends exactly one 837P for 50 concurrent submits of one key: 1 success and 49 409s', async () => {
    const patient = await readyPatient(app);
    const { claimId } = await createDraft(claimBody(patient.id));
    const idempotencyKey = uid('key');
    const results = await Promise.all(Array.from({ length: 50 }, () => submit({ claimId, idempotencyKey })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(49).fill(409)]);
    expect(await app.db.claimTransmission.count({ where: { claimId, kind: '837P' } })).toBe(1);
  });

  it('sends one 837P for 20 concurrent submits of one draft without keys: the rest find it submitted (422)', async () => {
    const patient = await readyPatient(app);
    const { claimId } = await createDraft(claimBody(patient.id));
    const counter = async () =>
      Number((await app.db.x12ControlCounter.findUnique({ where: { name: '837P' } }))?.value ?? 0);
    const counterBefore = await counter();
    const results = await Promise.all(Array.from({ length: 20 }, () => submit({ claimId })));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(422)]);
    expect(await app.db.claimTransmission.count({ where: { claimId, kind: '837P' } })).toBe(1);
    // Issue 29 item 5: the losers take no control number; the sequence advances only for the document sent.
    expect((await counter()) - counterBefore).toBe(1);
  });

  it('filters the list by a comma list of statuses', async () => {
    const res = await billing.get('/api/claims?status=rejected,appealed');
    expect(res.status).toBe(200);
    expect(res.body.claims.every((c: { status: string }) => ['rejected', 'appealed'].includes(c.status))).toBe(true);
    expect((await billing.get('/api/claims?status=rejected,lost')).status).toBe(400);
  });

  it("answers 404 for another clinic's claim on every claim route, 403 for its patient, 401 without a session", async () => {
    const patient = await readyPatient(app);
    const { claimId } = await createDraft(claimBody(patient.id));
    const south = await signIn(app, 'admin@southside.test');
    const southStepUp = await stepUpHeader(app, 'admin@southside.test');
    const notFound = { code: 'NOT_FOUND', message: 'No such claim', correlationId: anyId };
    const attempts = [
      await south.get(`/api/claims/${claimId}`),
      await south.patch(`/api/claims/${claimId}`, { placeOfService: '22' }),
      await south.post(`/api/claims/${claimId}/scrub`),
      await south.get(`/api/claims/${claimId}/status`),
      await south.get(`/api/claims/${claimId}/status?refresh=true`),
      await south.get(`/api/claims/${claimId}/transmissions`),
      await south.post(`/api/claims/${claimId}/appeal`, { reason: 'x' }, { headers: southStepUp }),
      await south.post('/api/claims/submit', { claimId }, { headers: southStepUp }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    }
    const create = await south.post('/api/claims', claimBody(patient.id));
    expect(create.status).toBe(403);
    expect(create.body.code).toBe('OUT_OF_SCOPE');
    expect((await billing.get(`/api/claims/${claimId}`)).body.status).toBe('draft');

    const anonymous = new HttpClient(app.url);
    for (const res of [
      await anonymous.get(`/api/claims/${claimId}`),
      await anonymous.post('/api/claims', claimBody(patient.id)),
      await anonymous.post(`/api/claims/${claimId}/scrub`),
      await anonymous.get(`/api/claims/${claimId}/status`),
      await anonymous.get(`/api/claims/${claimId}/transmissions`),
      await anonymous.get('/api/claims/scrub-edits'),
    ]) {
      expect(res.status).toBe(401);
    }
  });

  it('keeps reads to claims:read and writes to claims:write', async () => {
    const patient = await readyPatient(app);
    const { claimId } = await createDraft(claimBody(patient.id));
    const frontdesk = await signIn(app, 'frontdesk@northside.test');
    expect((await frontdesk.get(`/api/claims/${claimId}`)).status).toBe(200);
    expect((await frontdesk.post(`/api/claims/${claimId}/scrub`)).status).toBe(200);
    const refused = await frontdesk.patch(`/api/claims/${claimId}`, { placeOfService: '22' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('SCOPE_MISSING');
    expect((await frontdesk.post('/api/claims', claimBody(patient.id))).status).toBe(403);
  });
});

describe('claims through a live CAQH CORE clearinghouse', () => {
  let app: TestApp;
  let fake: FakeClearinghouse;
  let billing: HttpClient;
  let stepUp: Record<string, string>;
  beforeAll(async () => {
    fake = await startFakeClearinghouse();
    app = await startApp({
      env: {
        ...clearinghouseEnv(fake),
      },
    });
    billing = await signIn(app, 'billing@northside.test');
    stepUp = await stepUpHeader(app, 'billing@northside.test');
  });
  afterAll(async () => {
    await app?.stop();
    await fake?.close();
  });

  const draft = async () => {
    const patient = await readyPatient(app);
    const res = await billing.post('/api/claims', claimBody(patient.id));
    expect(res.status).toBe(201);
    return res.body.claimId as string;
  };
  const submit = (body: unknown, headers: Record<string, string> = {}) =>
    billing.post('/api/claims/submit', body, { headers: { ...stepUp, ...headers } });

  it('submits in batch mode: the 837P, then the 999 and the 277CA retrieved; the claim is accepted', async () => {
    fake.setBehaviour('ok');
    const claimId = await draft();
    const before = fake.received.length;
    const correlationId = uid('corr');
    const res = await submit({ claimId }, { 'x-correlation-id': correlationId });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('accepted');
    const envelopes = fake.received.slice(before);
    expect(envelopes.map((e) => [e.fields.PayloadType, e.fields.ProcessingMode])).toEqual([
      ['X12_837_Request_005010X222A1', 'Batch'],
      ['X12_999_RetrievalRequest_005010X231A1', 'Batch'],
      ['X12_005010_Request_Batch_Results_277CA', 'Batch'],
    ]);
    expect(envelopes.every((e) => e.correlationId === correlationId)).toBe(true);
    expect(envelopes[0]!.fields.Payload).toContain(`CLM*${claimId}*160*`);
    expect(envelopes[0]!.fields.Payload).toContain('PER*IC**TE*5185550100~');

    const status = await billing.get(`/api/claims/${claimId}/status?refresh=true`);
    expect(status.status, status.text).toBe(200);
    expect(
      status.body.history.map((h: { kind: string; statusCategory: string }) => [h.kind, h.statusCategory]),
    ).toEqual([
      ['277CA', 'A2'],
      ['277', 'P1'],
    ]);
    expect(fake.received.at(-1)!.fields).toMatchObject({
      PayloadType: 'X12_276_Request_005010X212',
      ProcessingMode: 'RealTime',
    });
  });

  it('a 999 R leaves the claim a draft with the reason, both documents kept', async () => {
    fake.setBehaviour('reject-999');
    const claimId = await draft();
    const res = await submit({ claimId });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('draft');
    expect(res.body.statusReason).toMatch(/^Rejected by the clearinghouse \(999 R\)/);
    const sent = (await billing.get(`/api/claims/${claimId}/transmissions`)).body.transmissions;
    expect(sent.map((t: { kind: string }) => t.kind)).toEqual(['837P', '999']);
  });

  it('a 999 without a 277CA yet: submitted, and the status refresh asks later', async () => {
    fake.setBehaviour('no-277ca');
    const claimId = await draft();
    const res = await submit({ claimId });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('submitted');
  });

  // A 500 or an answer that is not CORE's may come after the clearinghouse took the 837P: claims-outbox.test.ts.
  it.each(['refuse'] as const)(
    'a clearinghouse answering %s is 502 TRANSPORT_FAILED and the claim is a draft again, the 837P attempt kept',
    async (behaviour) => {
      fake.setBehaviour(behaviour);
      const claimId = await draft();
      const before = await billing.get(`/api/claims/${claimId}`);
      const idempotencyKey = uid('key');
      const res = await submit({ claimId, idempotencyKey });
      expect(res.status).toBe(502);
      expect(res.body).toEqual({
        code: 'TRANSPORT_FAILED',
        message: 'The clearinghouse could not be reached; try again later',
        correlationId: anyId,
      });
      expect(res.text).not.toContain(FAKE_CLEARINGHOUSE_ERROR_TEXT);
      // The claim is as it was, with the attempt on its timeline; what was handed over is kept (recorded before
      // the send, DECISIONS "Security findings of 2026-11-28").
      const after = (await billing.get(`/api/claims/${claimId}`)).body;
      const { timeline: timelineBefore, ...claimBefore } = before.body;
      const { timeline: timelineAfter, ...claimAfter } = after;
      expect(claimAfter).toEqual(claimBefore);
      expect(timelineAfter.slice(timelineBefore.length).map((e: { kind: string }) => e.kind)).toEqual([
        'sending',
        'send-failed',
      ]);
      expect(await app.db.claimTransmission.count({ where: { claimId, direction: 'in' } })).toBe(0);
      expect(await app.db.claimTransmission.count({ where: { claimId, kind: '837P' } })).toBe(1);
      // Nothing was used up: the same key sends once the clearinghouse is back.
      fake.setBehaviour('ok');
      const retry = await submit({ claimId, idempotencyKey });
      expect(retry.status, retry.text).toBe(200);
      expect(retry.body.status).toBe('accepted');
    },
  );
});

describe('claims in production without a clearinghouse', () => {
  let app: TestApp;
  let fake: FakeClearinghouse;
  beforeAll(async () => {
    fake = await startFakeClearinghouse();
    // Only part of the group: the feature is off, and the configured URL must see nothing.
    app = await startApp({
      // https, as production requires of every outside URL; the plain fake still counts any connection made.
      env: {
        SVC_ENV: 'production',
        CLEARINGHOUSE_URL: fake.url.replace('http:', 'https:'),
        CLEARINGHOUSE_USERNAME: fake.username,
      },
    });
  });
  afterAll(async () => {
    await app?.stop();
    await fake?.close();
  });

  it('refuses submit and status refresh with 503 before any work, with zero calls to the clearinghouse', async () => {
    const tenant = await createTenant(app.db, 'Prod');
    await app.db.clinic.update({
      where: { id: tenant.clinicId },
      data: {
        billingTaxonomy: '261QP2300X',
        billingTaxId: '123456789',
        billingAddress: { line1: '1 Main Street', city: 'Albany', state: 'NY', postalCode: '122071234' },
      },
    });
    const user = await createUser(app.db, tenant, { scopes: ['claims:read', 'claims:write'] });
    const client = await signIn(app, user.email, user.password);
    const stepUp = await stepUpHeader(app, user.email);
    const patient = await readyPatient(app, { tenant });
    const created = await client.post('/api/claims', claimBody(patient.id));
    expect(created.status).toBe(201);
    const claimId = created.body.claimId;
    const unavailable = {
      code: 'DEPENDENCY_UNAVAILABLE',
      message: 'Claim submission is not available',
      correlationId: anyId,
    };
    const bySubmit = await client.post('/api/claims/submit', { claimId }, { headers: stepUp });
    expect(bySubmit.status).toBe(503);
    expect(bySubmit.body).toEqual(unavailable);
    const inline = await client.post(
      '/api/claims/submit',
      { ...claimBody(patient.id), totalCharge: '160.00' },
      { headers: stepUp },
    );
    expect(inline.status).toBe(503);
    const refresh = await client.get(`/api/claims/${claimId}/status?refresh=true`);
    expect(refresh.status).toBe(503);
    expect(fake.connections).toBe(0);
    expect(await app.db.claim.count({ where: { patientId: patient.id } })).toBe(1);
    expect((await client.get(`/api/claims/${claimId}`)).body.status).toBe('draft');
    expect(await app.db.claimTransmission.count()).toBe(0);
    // Reads need no clearinghouse.
    expect((await client.get(`/api/claims/${claimId}/status`)).status).toBe(200);
  });
});

describe('claims on the embedded PGlite database (one connection)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ database: 'pglite' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('verifies, drafts, scrubs and submits a demo patient through the sandbox clearinghouse, and the 835 pays it', async () => {
    const admin = await signIn(app, 'admin@northside.test');
    const verify = await admin.post('/api/eligibility/verify', {
      patientId: 'pat_n_001',
      firstName: 'Avery',
      lastName: 'Northside001',
      dob: '1971-02-11',
      memberId: 'DEMO-ACTIVE-N001',
      payerName: 'Aetna',
      npi: '1234567893',
    });
    expect(verify.status, verify.text).toBe(200);
    const draft = await admin.post('/api/claims', claimBody('pat_n_001'));
    expect(draft.status, draft.text).toBe(201);
    const claimId = draft.body.claimId;
    expect((await admin.post(`/api/claims/${claimId}/scrub`)).body).toEqual({ issues: [] });
    const res = await admin.post(
      '/api/claims/submit',
      { claimId, idempotencyKey: uid('key') },
      { headers: await stepUpHeaderFor(admin) },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('accepted');
    const paid = await until(
      async () => (await admin.get(`/api/claims/${claimId}`)).body,
      (claim) => claim.status !== 'accepted',
    );
    expect(['paid', 'partially_paid']).toContain(paid.status);
  });
});

/** A step-up claim through the real route (the PGlite app's database is not the test's to read). */
async function stepUpHeaderFor(client: HttpClient): Promise<Record<string, string>> {
  const res = await client.post('/api/auth/step-up', { factor: 'password', password: 'demo-password-1' });
  expect(res.status, res.text).toBe(200);
  return { 'x-svc-step-up': res.body.stepUpToken };
}
