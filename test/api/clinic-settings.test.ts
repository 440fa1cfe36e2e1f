// GET and PATCH /api/clinic over real HTTP and PostgreSQL: every signed-in user reads their own clinic's time
// zone and billing provider; only users:admin changes them, with step-up, audited, and only in their clinic.
// The appointments API then counts the clinic's day in the new zone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { signIn } from '../support/http';
import { stepUpHeader } from '../support/step-up-claim';
import { createPatient, createTenant, createUser } from '../support/factories';
import { clinicToday } from '@/lib/time/clinic-day';

const anyId = expect.any(String);

describe('/api/clinic', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("answers any signed-in user's own clinic: name, time zone and billing provider", async () => {
    const frontdesk = await signIn(app, 'frontdesk@northside.test');
    const north = await frontdesk.get('/api/clinic');
    expect(north.status).toBe(200);
    expect(north.body).toEqual({
      id: 'clinic_north',
      name: 'Northside Clinic',
      timeZone: 'America/New_York',
      phone: '5185550100',
      billingProvider: {
        npi: '1234567893',
        name: 'Northside Clinic Billing',
        taxonomy: '261QP2300X',
        taxId: '123456789',
        address: { line1: '100 North Main Street', city: 'Albany', state: 'NY', postalCode: '122071234' },
      },
    });
    const south = await (await signIn(app, 'admin@southside.test')).get('/api/clinic');
    expect(south.body).toMatchObject({ id: 'clinic_south', timeZone: 'America/Los_Angeles' });
  });

  it('refuses an anonymous caller with 401', async () => {
    const res = await fetch(`${app.url}/api/clinic`);
    expect(res.status).toBe(401);
  });

  it('changes the time zone and billing provider with users:admin and step-up, audited by field name', async () => {
    const tenant = await createTenant(app.db);
    const admin = await createUser(app.db, tenant);
    const client = await signIn(app, admin.email, admin.password);
    const correlationId = 'clinic-patch-0001-abcdef';
    const res = await client.patch(
      '/api/clinic',
      {
        timeZone: 'America/Los_Angeles',
        phone: '+1 (619) 555-0142',
        billingProvider: {
          npi: '1497758544',
          name: 'Harbor Billing',
          taxonomy: '207q00000x',
          taxId: '12-3456789',
          address: { line1: '1 Harbor Way', city: 'San Diego', state: 'ca', postalCode: '92101-1234' },
        },
      },
      { headers: { ...(await stepUpHeader(app, admin.email)), 'x-correlation-id': correlationId } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: tenant.clinicId,
      name: tenant.clinicName,
      timeZone: 'America/Los_Angeles',
      phone: '6195550142',
      billingProvider: {
        npi: '1497758544',
        name: 'Harbor Billing',
        taxonomy: '207Q00000X',
        taxId: '123456789',
        address: { line1: '1 Harbor Way', city: 'San Diego', state: 'CA', postalCode: '921011234' },
      },
    });
    expect(await app.db.auditLog.findMany({ where: { correlationId } })).toEqual([
      expect.objectContaining({
        action: 'clinic.settings.update',
        outcome: 'success',
        userId: admin.id,
        clinicId: tenant.clinicId,
        detail: {
          changed: [
            'timeZone',
            'phone',
            'billingNpi',
            'billingProviderName',
            'billingTaxonomy',
            'billingTaxId',
            'billingAddress',
          ],
        },
      }),
    ]);
    // Only what is sent changes.
    const again = await client.patch(
      '/api/clinic',
      { timeZone: 'America/Chicago' },
      { headers: await stepUpHeader(app, admin.email) },
    );
    expect(again.body).toMatchObject({ timeZone: 'America/Chicago', billingProvider: { name: 'Harbor Billing' } });
  });

  it('requires a step-up claim and changes nothing without one', async () => {
    const admin = await signIn(app, 'admin@northside.test');
    const res = await admin.patch('/api/clinic', { timeZone: 'Europe/Paris' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      code: 'STEP_UP_REQUIRED',
      message: 'Confirm it is you to continue',
      correlationId: anyId,
    });
    expect(res.headers.get('www-authenticate')).toContain('insufficient_user_authentication');
    const clinic = await app.db.clinic.findUniqueOrThrow({ where: { id: 'clinic_north' } });
    expect(clinic.timeZone).toBe('America/New_York');
  });

  it('refuses a user without users:admin with SCOPE_MISSING, even with a step-up claim', async () => {
    const frontdesk = await signIn(app, 'frontdesk@northside.test');
    const res = await frontdesk.patch(
      '/api/clinic',
      { timeZone: 'Europe/Paris' },
      { headers: await stepUpHeader(app, 'frontdesk@northside.test') },
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'SCOPE_MISSING',
      message: 'This action needs the users:admin scope',
      correlationId: anyId,
    });
  });

  it('refuses an unknown time zone and malformed provider fields with a sentence per field', async () => {
    const tenant = await createTenant(app.db);
    const admin = await createUser(app.db, tenant);
    const client = await signIn(app, admin.email, admin.password);
    const res = await client.patch(
      '/api/clinic',
      {
        timeZone: 'Mars/Olympus_Mons',
        billingProvider: { npi: '1234567890', taxonomy: 'abc', taxId: '12345', address: { line1: '', city: 'X' } },
      },
      { headers: await stepUpHeader(app, admin.email) },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    const byPath = Object.fromEntries(
      (res.body.issues as { path: string; message: string }[]).map((i) => [i.path, i.message]),
    );
    expect(byPath).toMatchObject({
      'body.timeZone': 'Choose a time zone from the list, e.g. America/Los_Angeles',
      'body.billingProvider.npi': 'Enter the 10-digit NPI as NPPES issued it (its check digit does not match)',
      'body.billingProvider.taxonomy': 'Enter the 10-character taxonomy code, e.g. 261QP2300X',
      'body.billingProvider.taxId': 'Enter the tax id: 9 digits',
      'body.billingProvider.address.line1': 'Enter the street address',
      'body.billingProvider.address.city': 'Enter the city',
      'body.billingProvider.address.state': 'Enter the two-letter state code, e.g. CA',
    });
    const clinic = await app.db.clinic.findUniqueOrThrow({ where: { id: tenant.clinicId } });
    expect(clinic.timeZone).toBe('America/New_York');
  });

  it("changes only the caller's clinic: Southside's admin never touches Northside", async () => {
    const south = await signIn(app, 'admin@southside.test');
    const res = await south.patch(
      '/api/clinic',
      { billingProvider: { name: 'Southside Billing Group' } },
      { headers: await stepUpHeader(app, 'admin@southside.test') },
    );
    expect(res.body).toMatchObject({ id: 'clinic_south', billingProvider: { name: 'Southside Billing Group' } });
    const north = await app.db.clinic.findUniqueOrThrow({ where: { id: 'clinic_north' } });
    expect(north.billingProviderName).toBe('Northside Clinic Billing');
  });

  it("counts the appointments' day in the clinic's zone: an evening visit is on the clinic's date", async () => {
    const tenant = await createTenant(app.db);
    await app.db.clinic.update({ where: { id: tenant.clinicId }, data: { timeZone: 'America/Los_Angeles' } });
    const user = await createUser(app.db, tenant, { scopes: ['appointments:read'] });
    const client = await signIn(app, user.email, user.password);
    const patient = await createPatient(app.db, tenant);
    // 17:30 in Los Angeles on 23 November is 01:30 UTC on the 24th; 23:30 on the 22nd is 07:30 UTC on the 23rd.
    for (const [id, start] of [
      ['evening', '2026-11-24T01:30:00Z'],
      ['day-before', '2026-11-23T07:30:00Z'],
      ['morning', '2026-11-23T16:00:00Z'],
    ]) {
      await app.db.appointment.create({
        data: {
          id: `appt_${id}_${patient.id}`,
          clinicId: tenant.clinicId,
          patientId: patient.id,
          start: new Date(start!),
        },
      });
    }
    const res = await client.get('/api/appointments?date=2026-11-23');
    expect(res.status).toBe(200);
    expect(res.body.date).toBe('2026-11-23');
    expect(res.body.timeZone).toBe('America/Los_Angeles');
    expect(res.body.appointments.map((a: { start: string }) => a.start)).toEqual([
      '2026-11-23T16:00:00.000Z',
      '2026-11-24T01:30:00.000Z',
    ]);
  });

  it("takes the date of service from the clinic's day: verify's default is its today, a roster visit its local date", async () => {
    const tenant = await createTenant(app.db);
    await app.db.clinic.update({ where: { id: tenant.clinicId }, data: { timeZone: 'America/Los_Angeles' } });
    const user = await createUser(app.db, tenant, { scopes: ['eligibility:read'] });
    const client = await signIn(app, user.email, user.password);
    const patient = await createPatient(app.db, tenant, { birthDate: '1980-01-02' });
    const verified = await client.post('/api/eligibility/verify', {
      patientId: patient.id,
      firstName: patient.firstName,
      lastName: patient.lastName,
      dob: '1980-01-02',
      memberId: patient.coverageMemberId,
      payerName: 'Aetna',
      npi: '1234567893',
    });
    expect(verified.status).toBe(200);
    const dates = async () =>
      (await app.db.eligibilityCheck.findMany({ where: { patientId: patient.id }, orderBy: { createdAt: 'asc' } })).map(
        (row) => row.dateOfService,
      );
    expect(await dates()).toEqual([clinicToday(new Date(), 'America/Los_Angeles')]);
    // 17:30 in Los Angeles on 7 April is 00:30 UTC on the 8th: the visit is on the 7th at the clinic.
    const roster = await client.post('/api/eligibility/roster', {
      appointments: [{ patientId: patient.id, start: '2026-04-08T00:30:00Z' }],
    });
    expect(roster.status).toBe(200);
    expect((await dates()).at(-1)).toBe('2026-04-07');
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${app.url}/api/openapi.json`)).json()) as { paths: Record<string, object> };
    expect(Object.keys(doc.paths['/api/clinic'] ?? {}).sort()).toEqual(['get', 'patch']);
  });
});
