// Billing sees people, not ids (issue 28 item 3): the claim view names the patient (name and date of birth) on
// GET /api/claims and GET /api/claims/{id}, for billing, which has no patients:read; another clinic's claim stays
// 404. And the claim editor's patient search (item 4), GET /api/claims/patients?q= (claims:write): the clinic's
// own patients only, by name or id, at most 20.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createPatient } from '../support/factories';

// Demo tenant (lib/demo/demo-tenant.ts): pat_n_003 is Casey Northside003, born 1973-04-13.
const PATIENT = 'pat_n_003';
const NAME = 'Casey Northside003';
const BIRTH_DATE = '1973-04-13';

describe('the claim view names the patient', () => {
  let app: TestApp;
  let billing: HttpClient;
  let claimId: string;
  beforeAll(async () => {
    app = await startApp();
    billing = await signIn(app, 'billing@northside.test');
    const created = await billing.post('/api/claims', {
      patientId: PATIENT,
      serviceDate: '2026-11-20',
      diagnoses: ['J02.9'],
      lines: [{ procedureCode: '99213', diagnosisPointers: [1], units: 1, chargeCents: 12_500 }],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ patientId: PATIENT, patientName: NAME, patientBirthDate: BIRTH_DATE });
    claimId = created.body.claimId;
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('billing, without patients:read, reads the name and birth date on the list and on the claim', async () => {
    expect((await billing.get(`/api/patients/${PATIENT}`)).status).toBe(403);
    const list = await billing.get('/api/claims');
    expect(list.status).toBe(200);
    const row = list.body.claims.find((c: { claimId: string }) => c.claimId === claimId);
    expect(row).toMatchObject({ patientId: PATIENT, patientName: NAME, patientBirthDate: BIRTH_DATE });
    const one = await billing.get(`/api/claims/${claimId}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ claimId, patientId: PATIENT, patientName: NAME, patientBirthDate: BIRTH_DATE });
  });

  it("another clinic's claim is still 404, names included nowhere", async () => {
    const south = await signIn(app, 'admin@southside.test');
    const res = await south.get(`/api/claims/${claimId}`);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain(NAME);
    const list = await south.get('/api/claims');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(NAME);
  });

  it('the editor search finds the clinic own patients by name words or id, for billing', async () => {
    const byName = await billing.get('/api/claims/patients?q=casey%20north');
    expect(byName.status).toBe(200);
    expect(byName.body).toEqual({ patients: [{ patientId: PATIENT, name: NAME, birthDate: BIRTH_DATE }] });
    const byId = await billing.get(`/api/claims/patients?q=${PATIENT}`);
    expect(byId.body.patients.map((p: { patientId: string }) => p.patientId)).toEqual([PATIENT]);
    // Southside's patients are not Northside's to bill.
    const other = await billing.get('/api/claims/patients?q=Southside');
    expect(other.body).toEqual({ patients: [] });
    expect((await billing.get('/api/claims/patients?q=pat_s_001')).body).toEqual({ patients: [] });
  });

  it('answers at most 20, refuses an empty query, and needs claims:write', async () => {
    for (let i = 0; i < 22; i++)
      await createPatient(
        app.db,
        { orgId: 'org_demo', clinicId: 'clinic_north', clinicName: 'Northside Clinic' },
        {
          firstName: 'Manyname',
        },
      );
    const many = await billing.get('/api/claims/patients?q=manyname');
    expect(many.status).toBe(200);
    expect(many.body.patients).toHaveLength(20);
    expect((await billing.get('/api/claims/patients?q=%20')).status).toBe(400);
    const frontDesk = await signIn(app, 'frontdesk@northside.test');
    expect((await frontDesk.get('/api/claims/patients?q=casey')).status).toBe(403);
  });
});
