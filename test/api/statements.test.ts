// Patient statements over real HTTP and PostgreSQL: GET /api/bills/{id}/statement answers a PDF attachment whose
// text (read back with a PDF text extractor) says what DECISIONS lists, for the bill a remittance raised; scope,
// session and tenancy; the read is in the PHI access log.
import { PDFDocument } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicToday } from '@/lib/time/clinic-day';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createTenant, createUser, uid, type TestTenant } from '../support/factories';
import { claimPayment, createClaim, remittanceOf, x12Of } from '../support/remittances';

async function download(client: HttpClient, path: string) {
  const res = await fetch(new URL(path, client.baseUrl), { headers: { cookie: client.cookieHeader() } });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function textOf(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

/** "12/28/2026" for "2026-12-28". */
const us = (date: string) => `${date.slice(5, 7)}/${date.slice(8, 10)}/${date.slice(0, 4)}`;

describe('patient statements', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let billing: HttpClient;
  let billId: string;
  let patientId: string;

  beforeAll(async () => {
    app = await startApp();
    tenant = await createTenant(app.db, 'Statement');
    other = await createTenant(app.db, 'Other');
    await app.db.clinic.update({
      where: { id: tenant.clinicId },
      data: {
        phone: '5185550100',
        billingAddress: { line1: '100 North Main Street', city: 'Albany', state: 'NY', postalCode: '122071234' },
      },
    });
    const user = await createUser(app.db, tenant, { scopes: ['svcpay:read', 'svcpay:write', 'claims:read'] });
    billing = await signIn(app, user.email, user.password);
    const claim = await createClaim(app.db, tenant);
    patientId = claim.patientId;
    await app.db.patient.update({
      where: { id: patientId },
      data: { address: { line1: '12 Elm Street', line2: 'Apt 3', city: 'Troy', state: 'NY', postalCode: '12180' } },
    });
    // Charged 250.00: paid 87.80, adjusted 100.25 (CO-45), the patient's share 61.95 (deductible and coinsurance).
    const remittance = remittanceOf([
      claimPayment(claim.id, '1', [
        {
          procedureCode: '99213',
          chargeCents: 15_000,
          adjustments: [
            ['CO', '45', 4_025],
            ['PR', '1', 5_000],
            ['PR', '2', 1_195],
          ],
        },
        { procedureCode: '81002', chargeCents: 10_000, adjustments: [['CO', '45', 6_000]] },
      ]),
    ]);
    expect((await billing.post('/api/remittances', { x12: x12Of(remittance) })).status).toBe(200);
    billId = (await app.db.patientBill.findFirstOrThrow({ where: { claimId: claim.id } })).id;
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('answers a one-page PDF attachment with the clinic, the patient, the visit, the total due, the due date and how to pay', async () => {
    const res = await download(billing, `/api/bills/${billId}/statement`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="statement-${billId}.pdf"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const pdf = await PDFDocument.load(res.bytes);
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getTitle()).toBe(`Statement ${billId}`);

    const text = await textOf(res.bytes);
    const today = clinicToday(new Date(), 'America/New_York');
    const due = new Date(`${today}T00:00:00Z`);
    due.setUTCDate(due.getUTCDate() + 30);
    for (const expected of [
      tenant.clinicName,
      '100 North Main Street',
      'Albany, NY 12207-1234',
      '(518) 555-0100',
      'Pat Ient',
      '12 Elm Street',
      'Apt 3',
      'Troy, NY 12180',
      `Bill: ${billId}`,
      `Statement date: ${us(today)}`,
      `Due date: ${us(due.toISOString().slice(0, 10))}`,
      '11/02/2026',
      '99213 x1',
      '81002 x1',
      '$250.00',
      '$87.80',
      '$100.25',
      'Total due $61.95',
      'How to pay',
      `By mail: send a check payable to ${tenant.clinicName}`,
    ])
      expect(text).toContain(expected);
    // The visit's row: charged, insurance paid, insurance adjusted, the patient's share, in that order.
    expect(text).toMatch(/\$250\.00 \$87\.80 \$100\.25 \$61\.95/);
  });

  it('takes what the patient already paid off the total due', async () => {
    await app.db.patientBill.update({ where: { id: billId }, data: { paidCents: 2_000 } });
    try {
      const text = await textOf((await download(billing, `/api/bills/${billId}/statement`)).bytes);
      expect(text).toContain('Paid so far -$20.00');
      expect(text).toContain('Total due $41.95');
    } finally {
      await app.db.patientBill.update({ where: { id: billId }, data: { paidCents: 0 } });
    }
  });

  it("dates a bill without a claim by the clinic's calendar", async () => {
    // Billed at 21:30 on 2026-11-19 in New York: 02:30 UTC on the 20th.
    const bill = await app.db.patientBill.create({
      data: {
        id: uid('bill'),
        clinicId: tenant.clinicId,
        patientId,
        amountCents: 4_500,
        createdAt: new Date('2026-11-20T02:30:00Z'),
      },
    });
    const text = await textOf((await download(billing, `/api/bills/${bill.id}/statement`)).bytes);
    expect(text).toContain('11/19/2026');
    expect(text).not.toContain('11/20/2026');
    expect(text).toContain('Total due $45.00');
  });

  it('logs the read as a PHI access of the patient', async () => {
    const before = await app.db.phiAccessLog.count({ where: { patientId, purpose: 'bills.statement' } });
    expect((await download(billing, `/api/bills/${billId}/statement`)).status).toBe(200);
    expect(await app.db.phiAccessLog.count({ where: { patientId, purpose: 'bills.statement' } })).toBe(before + 1);
  });

  it('answers 404 for another clinic’s bill, 403 without svcpay:read and 401 without a session', async () => {
    const theirs = await createUser(app.db, other, { scopes: ['svcpay:read'] });
    const south = await signIn(app, theirs.email, theirs.password);
    const crossTenant = await south.get(`/api/bills/${billId}/statement`);
    expect(crossTenant.status).toBe(404);
    expect(crossTenant.body).toEqual({ code: 'NOT_FOUND', message: 'No such bill', correlationId: expect.any(String) });

    const claimsOnly = await createUser(app.db, tenant, { scopes: ['claims:read'] });
    const clerk = await signIn(app, claimsOnly.email, claimsOnly.password);
    const noScope = await clerk.get(`/api/bills/${billId}/statement`);
    expect(noScope.status).toBe(403);
    expect(noScope.body).toMatchObject({ code: 'SCOPE_MISSING' });

    expect((await fetch(`${app.url}/api/bills/${billId}/statement`)).status).toBe(401);
    expect(await app.db.phiAccessLog.count({ where: { userId: { in: [theirs.id, claimsOnly.id] } } })).toBe(0);
  });
});
