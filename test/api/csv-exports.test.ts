// The CSV downloads of the lists a billing office works from, over real HTTP and PostgreSQL: the claims queue with
// its state filter, the denials, one remittance's lines, the variances and the audit log; each `text/csv` with a
// file name, the same rows as the JSON answer, and text a spreadsheet would run as a formula neutralised.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createTenant, createUser, type TestTenant } from '../support/factories';
import { claimPayment, createClaim, remittanceOf, x12Of } from '../support/remittances';

const records = (text: string) => text.trimEnd().split('\r\n');

describe('CSV exports of the billing lists', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let admin: HttpClient;
  let deniedId: string;
  let remittanceId: string;

  beforeAll(async () => {
    app = await startApp();
    tenant = await createTenant(app.db, 'Csv');
    const user = await createUser(app.db, tenant);
    admin = await signIn(app, user.email, user.password);
    // A patient whose name a spreadsheet would read as a formula.
    await app.db.patient.create({
      data: {
        id: 'pat_csv_eq',
        clinicId: tenant.clinicId,
        firstName: '=HYPERLINK("x")',
        lastName: 'Doe',
        birthDate: '1980-01-02',
      },
    });
    const denied = await createClaim(app.db, tenant, {
      patientId: 'pat_csv_eq',
      lines: [{ procedureCode: '99213', chargeCents: 10_000 }],
    });
    deniedId = denied.id;
    await createClaim(app.db, tenant, { status: 'draft' });
    const res = await admin.post('/api/remittances', {
      x12: x12Of(
        remittanceOf(
          [
            claimPayment(denied.id, '4', [
              { procedureCode: '99213', chargeCents: 10_000, adjustments: [['CO', '50', 10_000]] },
            ]),
          ],
          { traceNumber: 'TRNCSV1' },
        ),
      ),
    });
    expect(res.status, res.text).toBe(200);
    remittanceId = res.body.remittances[0].remittanceId;
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('downloads the claims queue with the screen’s state filter, formula cells neutralised', async () => {
    const res = await admin.get('/api/claims?status=denied&format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="claims.csv"');
    const [header, ...rows] = records(res.text);
    expect(header).toBe(
      'claimId,patientId,patientName,status,statusReason,serviceDate,payerId,payerName,totalChargeCents,paidCents,patientResponsibilityCents,adjustmentCents,submittedAt',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(new RegExp(`^${deniedId},pat_csv_eq,"'=HYPERLINK\\(""x""\\) Doe",denied,`));
    expect(rows[0]).toContain(',10000,0,0,10000,');
    // The JSON answer of the same filter holds the same claim.
    const json = await admin.get('/api/claims?status=denied');
    expect(json.body.claims.map((c: { claimId: string }) => c.claimId)).toEqual([deniedId]);
  });

  it('downloads the denials with their codes in words and the next step', async () => {
    const res = await admin.get('/api/denials?format=csv');
    expect(res.status).toBe(200);
    const [header, row, ...rest] = records(res.text);
    expect(header).toBe(
      'claimId,patientName,status,serviceDate,payerName,totalChargeCents,paidCents,codes,reasons,nextAction,nextActionReason,updatedAt',
    );
    expect(rest).toEqual([]);
    expect(row).toContain(`${deniedId},"'=HYPERLINK(""x"") Doe",denied,`);
    expect(row).toContain(',10000,0,CO-50,');
  });

  it('downloads one remittance’s service lines', async () => {
    const res = await admin.get(`/api/remittances/${remittanceId}?format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="remittance-TRNCSV1.csv"');
    expect(records(res.text)).toEqual([
      'traceNumber,paymentDate,claimId,patientName,posting,statusCode,statusText,procedureCode,modifiers,units,chargeCents,paidCents,adjustments',
      // The patient by name, as the denials above, its formula defused the same way.
      `TRNCSV1,2026-11-20,${deniedId},"'=HYPERLINK(""x"") Doe",posted,4,Denied,99213,,1,10000,0,CO-50 10000`,
    ]);
  });

  it('downloads the variances and the audit log with their headers', async () => {
    const variances = await admin.get('/api/reconciliation/variances?format=csv');
    expect(variances.status).toBe(200);
    expect(records(variances.text)[0]).toBe(
      'day,kind,reference,ledgerCents,fboCents,railCents,eraCents,depositCents,claimId,note,detectedAt',
    );
    const audit = await admin.get('/api/audit?format=csv');
    expect(audit.status).toBe(200);
    expect(audit.headers.get('content-disposition')).toBe('attachment; filename="audit-log.csv"');
    const [header, ...rows] = records(audit.text);
    expect(header).toBe('at,kind,action,outcome,userId,userEmail,correlationId,detail');
    const json = await admin.get('/api/audit');
    expect(rows).toHaveLength(json.body.entries.length);
  });

  it('refuses a format it does not know, and keeps the scope of the list', async () => {
    const bad = await admin.get('/api/claims?format=xlsx');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    const reader = await createUser(app.db, tenant, { scopes: ['claims:read'] });
    const client = await signIn(app, reader.email, reader.password);
    expect((await client.get('/api/reconciliation/variances?format=csv')).status).toBe(403);
    expect((await client.get('/api/audit?format=csv')).status).toBe(403);
  });
});
