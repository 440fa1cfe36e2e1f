// GET /api/patients and GET /api/patients/{id} over real HTTP and PostgreSQL: search by name, date of birth and
// member id within the caller's clinic only (Southside never sees Northside's patients), at most 100, every
// patient answered logged as a PHI read; one patient's record with coverage on file, eligibility history and
// appointments; another clinic's patient and a missing one answer the same 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createPatient, createTenant, createUser, uid } from '../support/factories';

const anyId = expect.any(String);
const REFUSED = { code: 'OUT_OF_SCOPE', message: 'The patient is not enrolled in your clinic', correlationId: anyId };

describe('GET /api/patients', () => {
  let app: TestApp;
  let frontdesk: HttpClient;
  beforeAll(async () => {
    app = await startApp();
    frontdesk = await signIn(app, 'frontdesk@northside.test');
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("lists the clinic's patients by name with their coverage on file, and logs each as a PHI read", async () => {
    const correlationId = 'patients-list-0001-abcdef';
    const res = await frontdesk.get('/api/patients?limit=100', { headers: { 'x-correlation-id': correlationId } });
    expect(res.status).toBe(200);
    expect(res.body.truncated).toBe(false);
    const ids = res.body.patients.map((p: { id: string }) => p.id);
    expect(ids).toEqual(Array.from({ length: 10 }, (_, i) => `pat_n_${String(i + 1).padStart(3, '0')}`));
    expect(res.body.patients[0]).toEqual({
      id: 'pat_n_001',
      firstName: 'Avery',
      lastName: 'Northside001',
      birthDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      gender: 'female',
      coverage: {
        payerId: '60054',
        payerName: 'Aetna',
        memberId: 'DEMO-ACTIVE-N001',
        groupNumber: null,
        relationship: '18',
      },
      secondaryCoverage: null,
    });
    expect(res.body.patients[9]).toMatchObject({ id: 'pat_n_010', coverage: null });
    const logged = await app.db.phiAccessLog.findMany({ where: { correlationId } });
    expect(logged.map((row) => row.patientId).sort()).toEqual(ids);
    expect(logged.every((row) => row.purpose === 'patients.search' && row.clinicId === 'clinic_north')).toBe(true);
  });

  it('finds by name words, date of birth and part of the member id, case ignored', async () => {
    const tenant = await createTenant(app.db);
    const user = await createUser(app.db, tenant, { scopes: ['patients:read'] });
    const client = await signIn(app, user.email, user.password);
    const ada = await createPatient(app.db, tenant, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      birthDate: '1815-12-10',
      memberId: 'AET-111-ADA',
    });
    const alan = await createPatient(app.db, tenant, {
      firstName: 'Alan',
      lastName: 'Turing',
      birthDate: '1912-06-23',
      memberId: 'AET-222-ALAN',
    });
    const ids = async (query: string) =>
      (await client.get(`/api/patients?${query}`)).body.patients.map((p: { id: string }) => p.id);
    expect(await ids('name=love')).toEqual([ada.id]);
    expect(await ids('name=ADA%20lovelace')).toEqual([ada.id]);
    expect(await ids('name=ada%20turing')).toEqual([]);
    expect(await ids('birthDate=1912-06-23')).toEqual([alan.id]);
    expect(await ids('memberId=222-al')).toEqual([alan.id]);
    expect(await ids('memberId=aet')).toEqual([ada.id, alan.id]);
    expect(await ids('name=ada&birthDate=1912-06-23')).toEqual([]);
  });

  it('caps the list and says when more matched', async () => {
    const tenant = await createTenant(app.db);
    const user = await createUser(app.db, tenant, { scopes: ['patients:read'] });
    const client = await signIn(app, user.email, user.password);
    for (let i = 0; i < 3; i++) await createPatient(app.db, tenant);
    const res = await client.get('/api/patients?limit=2');
    expect(res.body.patients).toHaveLength(2);
    expect(res.body.truncated).toBe(true);
    const over = await client.get('/api/patients?limit=101');
    expect(over.status).toBe(400);
    expect(over.body.issues).toEqual([{ path: 'query.limit', message: 'limit must be a whole number from 1 to 100' }]);
  });

  it('refuses a malformed date of birth with a sentence for the field', async () => {
    const res = await frontdesk.get('/api/patients?birthDate=10/12/1815');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The request query is not valid',
      correlationId: anyId,
      issues: [{ path: 'query.birthDate', message: 'Enter the date of birth as on the card, e.g. 1980-01-31' }],
    });
  });

  it("never finds another clinic's patients: Southside searching Northside's names and member ids finds nothing", async () => {
    const south = await signIn(app, 'admin@southside.test');
    for (const query of ['name=Northside', 'memberId=N001', 'limit=100']) {
      const res = await south.get(`/api/patients?${query}`);
      expect(res.status).toBe(200);
      expect(res.body.patients.every((p: { id: string }) => p.id.startsWith('pat_s_'))).toBe(true);
    }
    expect((await south.get('/api/patients?name=Northside')).body.patients).toEqual([]);
  });

  it('refuses a user without patients:read with SCOPE_MISSING', async () => {
    const billing = await signIn(app, 'billing@northside.test');
    const res = await billing.get('/api/patients');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'SCOPE_MISSING',
      message: 'This action needs the patients:read scope',
      correlationId: anyId,
    });
  });
});

describe('GET /api/patients/{id}', () => {
  let app: TestApp;
  let frontdesk: HttpClient;
  beforeAll(async () => {
    app = await startApp();
    frontdesk = await signIn(app, 'frontdesk@northside.test');
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('answers demographics, coverage on file, eligibility history and appointments, and logs the read', async () => {
    const verify = await signIn(app, 'admin@northside.test');
    const checked = await verify.post('/api/eligibility/verify', {
      patientId: 'pat_n_002',
      firstName: 'Blake',
      lastName: 'Northside002',
      dob: '1972-03-12',
      memberId: 'DEMO-INACTIVE-N002',
      payerName: 'Aetna',
      npi: '1234567893',
    });
    expect(checked.status).toBe(200);
    const correlationId = 'patient-read-0001-abcdef';
    const res = await frontdesk.get('/api/patients/pat_n_002', { headers: { 'x-correlation-id': correlationId } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: 'pat_n_002',
      firstName: 'Blake',
      lastName: 'Northside002',
      gender: 'male',
      phone: null,
      address: { line: ['20 Elm Street'], city: 'Albany', state: 'NY', postalCode: '12207' },
      coverage: { payerId: '60054', payerName: 'Aetna', memberId: 'DEMO-INACTIVE-N002', relationship: '18' },
      subscriber: null,
    });
    expect(res.body.eligibilityChecks).toEqual([
      {
        id: anyId,
        checkedAt: checked.body.verifiedAt,
        status: 'inactive',
        eligible: false,
        mode: 'sandbox',
        payerId: '60054',
        memberId: 'DEMO-INACTIVE-N002',
        serviceType: '30',
        dateOfService: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        coverageOnFile: 'match',
        network: expect.any(String),
        planName: checked.body.planName,
        priorAuthRequired: false,
        rejectionReason: null,
      },
    ]);
    // The demo's morning of the day it started on (and, in the last 15 minutes before the clinic's midnight, the
    // next day's too: lib/demo/demo-tenant.ts), newest first.
    expect(res.body.appointments.length).toBeLessThanOrEqual(2);
    expect(res.body.appointments.at(-1)).toEqual({
      id: expect.stringMatching(/^appt_n_002_/),
      start: anyId,
      providerName: 'Northside Clinic Billing',
      reason: 'Office visit',
    });
    expect(await app.db.phiAccessLog.findMany({ where: { correlationId } })).toEqual([
      expect.objectContaining({ patientId: 'pat_n_002', purpose: 'patients.read', userId: 'user_frontdesk_north' }),
    ]);
  });

  it("answers another clinic's patient and a missing one with the same 403, logging nothing", async () => {
    const south = await signIn(app, 'admin@southside.test');
    const correlationId = 'patient-read-0002-abcdef';
    const other = await south.get('/api/patients/pat_n_001', { headers: { 'x-correlation-id': correlationId } });
    const missing = await south.get(`/api/patients/${uid('pat')}`);
    expect(other.status).toBe(403);
    expect(other.body).toEqual(REFUSED);
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual(REFUSED);
    expect(await app.db.phiAccessLog.count({ where: { correlationId } })).toBe(0);
  });

  it('refuses a user without patients:read with SCOPE_MISSING', async () => {
    const billing = await signIn(app, 'billing@northside.test');
    const res = await billing.get('/api/patients/pat_n_001');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('SCOPE_MISSING');
  });

  it('is in the OpenAPI document with the list route', async () => {
    const doc = (await (await fetch(`${app.url}/api/openapi.json`)).json()) as { paths: Record<string, object> };
    expect(Object.keys(doc.paths['/api/patients'] ?? {})).toEqual(['get']);
    expect(Object.keys(doc.paths['/api/patients/{id}'] ?? {})).toEqual(['get']);
  });
});
