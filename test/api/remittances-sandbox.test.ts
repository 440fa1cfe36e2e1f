// The revenue loop in the sandbox, over real HTTP: a claim submitted through the sandbox clearinghouse is later paid
// by the sandbox payer's 835 (lib/claims/sandbox-remittance.ts → ingestRemittance, source "sandbox"), and the posting
// shows on the remittance screens' reads, the claim, and a balanced ledger.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { stepUpHeader } from '../support/step-up-claim';
import { signIn, type HttpClient } from '../support/http';
import { createPatient, type TestTenant } from '../support/factories';
import { until } from '../support/until';

const NORTH: TestTenant = { orgId: 'org_demo', clinicId: 'clinic_north', clinicName: 'Northside Clinic' };
const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const SERVICE_DATE = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);

describe('the sandbox payer pays a submitted claim through the remittance ingest', () => {
  let app: TestApp;
  let billing: HttpClient;
  beforeAll(async () => {
    app = await startApp();
    billing = await signIn(app, 'billing@northside.test');
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('submits in sandbox and sees the 835 posted: remittance, claim amounts, balanced ledger', async () => {
    const memberId = `DEMO-ACTIVE-${uid('m').slice(2).toUpperCase()}`;
    const patient = await createPatient(app.db, NORTH, { memberId });
    await app.db.patient.update({
      where: { id: patient.id },
      data: {
        gender: 'female',
        address: { line: ['10 Elm Street'], city: 'Albany', state: 'NY', postalCode: '12207' },
      },
    });
    await app.db.eligibilityCheck.create({
      data: {
        clinicId: NORTH.clinicId,
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
    const submitted = await billing.post(
      '/api/claims/submit',
      {
        patientId: patient.id,
        serviceDate: SERVICE_DATE,
        placeOfService: '11',
        diagnoses: ['J02.9'],
        lines: [{ procedureCode: '99213', diagnosisPointers: [1], units: 1, chargeCents: 12_500 }],
        totalCharge: '125.00',
      },
      { headers: await stepUpHeader(app, 'billing@northside.test') },
    );
    expect(submitted.status, submitted.text).toBe(200);
    const claimId = submitted.body.claimId as string;

    const posted = await until(
      () => app.db.remittanceClaim.findFirst({ where: { claimId }, include: { remittance: true } }),
      (row) => row !== null,
    );
    expect(posted).not.toBeNull();
    expect(posted!.remittance).toMatchObject({ clinicId: NORTH.clinicId, source: 'sandbox' });
    const detail = await billing.get(`/api/remittances/${posted!.remittanceId}`);
    expect(detail.status).toBe(200);
    const line = detail.body.claims.find((c: { claimId: string }) => c.claimId === claimId);
    expect(line).toMatchObject({ claimId, patientId: patient.id, chargeCents: 12_500 });
    expect(line.paidCents).toBeGreaterThan(0);

    const claim = await app.db.claim.findUniqueOrThrow({ where: { id: claimId } });
    expect(['paid', 'partially_paid']).toContain(claim.status);
    expect(claim.paidCents).toBe(BigInt(line.paidCents));
    const unbalanced = await app.db.$queryRawUnsafe<unknown[]>(
      `SELECT "transactionId" FROM "LedgerEntry" GROUP BY 1 HAVING SUM("amountCents") <> 0`,
    );
    expect(unbalanced).toEqual([]);
    const postings = await app.db.ledgerTransaction.findMany({
      where: { id: { in: posted!.remittance.ledgerTransactionIds } },
      select: { kind: true },
    });
    expect(postings.map((p) => p.kind).sort()).toEqual(['claim.charge', 'remittance.claim']);
  });
});
