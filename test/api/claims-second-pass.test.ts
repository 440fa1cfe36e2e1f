// The second pass on claims over real HTTP and PostgreSQL, through the sandbox clearinghouse and its real 835s
// (DECISIONS "Claim lifecycle"): corrections (frequency 7) and voids (8) with REF*F8 and the original closed when
// the payer accepts them; the secondary claim (SBR01 S, 2320/2330/2430) to the secondary coverage on file, paid
// half of the primary's balance; the secondary coverage itself (PUT coverage rank). Each route: scope, step-up,
// tenancy (another clinic's claim is 404), its state rules, and nothing written on any refusal.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { stepUpHeader } from '../support/step-up-claim';
import { HttpClient, signIn } from '../support/http';
import { createPatient, createTenant, createUser, type TestTenant } from '../support/factories';
import { until } from '../support/until';

const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const NORTH: TestTenant = { orgId: 'org_demo', clinicId: 'clinic_north', clinicName: 'Northside Clinic' };
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
const SERVICE_DATE = daysAgo(3);
const ADDRESS = { line: ['10 Elm Street'], city: 'Albany', state: 'NY', postalCode: '12207' };
const SECONDARY_PAYER = '87726';

async function activeCheck(app: TestApp, patientId: string, memberId: string, payerId: string) {
  await app.db.eligibilityCheck.create({
    data: {
      clinicId: NORTH.clinicId,
      patientId,
      userId: 'test',
      cacheKey: uid('ck'),
      payerId,
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

/** A patient whose records pass every edit, with a fresh active check of the primary coverage. */
async function readyPatient(app: TestApp, memberPrefix = 'DEMO-ACTIVE') {
  const memberId = `${memberPrefix}-${uid('m').slice(2).toUpperCase()}`;
  const patient = await createPatient(app.db, NORTH, { memberId });
  await app.db.patient.update({ where: { id: patient.id }, data: { gender: 'female', address: ADDRESS } });
  await activeCheck(app, patient.id, memberId, '60054');
  return patient;
}

/** 99213-25 $125.00 and 87880 $35.00: the sandbox primary allows 80% ($128.00), takes a $20.00 copay, pays $108.00. */
const claimBody = (patientId: string) => ({
  patientId,
  serviceDate: SERVICE_DATE,
  placeOfService: '11',
  diagnoses: ['J02.9', 'R50.9'],
  lines: [
    { procedureCode: '99213', modifiers: ['25'], diagnosisPointers: [1, 2], units: 1, chargeCents: 12_500 },
    { procedureCode: '87880', diagnosisPointers: [1], units: 1, chargeCents: 3_500 },
  ],
});

describe('corrected, void and secondary claims', () => {
  let app: TestApp;
  let billing: HttpClient;
  let stepUp: Record<string, string>;
  let other: HttpClient;
  let otherStepUp: Record<string, string>;
  let reader: HttpClient;
  let readerStepUp: Record<string, string>;

  beforeAll(async () => {
    app = await startApp();
    billing = await signIn(app, 'billing@northside.test');
    stepUp = await stepUpHeader(app, 'billing@northside.test');
    const elsewhere = await createTenant(app.db, 'Elsewhere');
    const outsider = await createUser(app.db, elsewhere, { scopes: ['claims:read', 'claims:write'] });
    other = await signIn(app, outsider.email, outsider.password);
    otherStepUp = await stepUpHeader(app, outsider.email);
    const readOnly = await createUser(app.db, NORTH, { scopes: ['claims:read'] });
    reader = await signIn(app, readOnly.email, readOnly.password);
    readerStepUp = await stepUpHeader(app, readOnly.email);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const claimOf = async (claimId: string) => (await billing.get(`/api/claims/${claimId}`)).body;
  const sent837 = async (claimId: string) => {
    const res = await billing.get(`/api/claims/${claimId}/transmissions`);
    return (res.body.transmissions as { kind: string; x12: string }[]).filter((t) => t.kind === '837P').at(-1)!.x12;
  };
  const put = (client: HttpClient, path: string, body: unknown) => client.request('PUT', path, { json: body });
  const post = (path: string, body: unknown, client = billing, headers = stepUp) =>
    client.post(path, body, { headers });

  /** A claim the sandbox payer accepted and then paid by its 835; `prepare` changes the patient's records first. */
  async function paidClaim(memberPrefix?: string, prepare?: (patientId: string) => Promise<unknown>) {
    const patient = await readyPatient(app, memberPrefix);
    await prepare?.(patient.id);
    const created = await billing.post('/api/claims', claimBody(patient.id));
    expect(created.status, created.text).toBe(201);
    const { claimId } = created.body;
    const sent = await post('/api/claims/submit', { claimId });
    expect(sent.body.status, sent.text).toBe('accepted');
    const paid = await until(
      () => claimOf(claimId),
      (claim) => claim.status !== 'accepted',
    );
    expect(paid.status).toBe('paid');
    return { patient, claim: paid };
  }

  /** A secondary coverage on file for the patient, with an active check of it: what a secondary claim needs. */
  async function addSecondaryCoverage(patientId: string) {
    const memberId = `DEMO-ACTIVE-${uid('s').slice(2).toUpperCase()}`;
    const saved = await put(billing, `/api/patients/${patientId}/coverage`, {
      payerId: SECONDARY_PAYER,
      memberId,
      rank: 'secondary',
    });
    expect(saved.status, saved.text).toBe(200);
    await activeCheck(app, patientId, memberId, SECONDARY_PAYER);
    return memberId;
  }

  /** Everything a refusal must leave as it was: the clinic's claims and the claim's own row. */
  async function snapshot(claimId: string) {
    return {
      claims: await app.db.claim.count({ where: { clinicId: NORTH.clinicId } }),
      transmissions: await app.db.claimTransmission.count({ where: { clinicId: NORTH.clinicId } }),
      claim: await app.db.claim.findUnique({ where: { id: claimId } }),
    };
  }

  it('gives claim ids of 20 characters that CLM01 carries whole, and a payer claim number from the 277CA', async () => {
    const { claim } = await paidClaim();
    expect(claim.claimId).toMatch(/^clm_[0-9a-f]{16}$/);
    expect(await sent837(claim.claimId)).toContain(`CLM*${claim.claimId}*160***11:B:1*`);
    expect(claim).toMatchObject({
      frequency: '1',
      replacesClaimId: null,
      payerRank: 'primary',
      primaryClaimId: null,
      payerClaimId: expect.stringMatching(/^SBXPCN/),
    });
  });

  it('refuses a correction and a void without claims:write, without step-up, and for another clinic (404)', async () => {
    const { claim } = await paidClaim();
    const before = await snapshot(claim.claimId);
    for (const path of [`/api/claims/${claim.claimId}/correct`, `/api/claims/${claim.claimId}/void`]) {
      const body = path.endsWith('void') ? { reason: 'Billed in error' } : { placeOfService: '22' };
      const noScope = await post(path, body, reader, readerStepUp);
      expect(noScope.status).toBe(403);
      expect(noScope.body.code).toBe('SCOPE_MISSING');
      const noStepUp = await billing.post(path, body);
      expect(noStepUp.status).toBe(401);
      expect(noStepUp.body.code).toBe('STEP_UP_REQUIRED');
      const elsewhere = await post(path, body, other, otherStepUp);
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.body.code).toBe('NOT_FOUND');
    }
    expect(await snapshot(claim.claimId)).toEqual(before);
  });

  it('refuses to correct or void a draft or a rejected claim (409) and one without a payer claim number (422)', async () => {
    const patient = await readyPatient(app);
    const draft = (await billing.post('/api/claims', claimBody(patient.id))).body;
    const rejectedPatient = await readyPatient(app, 'DEMO-CH-REJECT');
    const rejected = (await billing.post('/api/claims', claimBody(rejectedPatient.id))).body;
    expect((await post('/api/claims/submit', { claimId: rejected.claimId })).body.status).toBe('rejected');

    for (const claimId of [draft.claimId, rejected.claimId]) {
      const before = await snapshot(claimId);
      const voided = await post(`/api/claims/${claimId}/void`, { reason: 'Billed in error' });
      expect(voided.status, voided.text).toBe(409);
      expect(voided.body.code).toBe('NOT_EXECUTABLE');
      const corrected = await post(`/api/claims/${claimId}/correct`, { placeOfService: '22' });
      expect(corrected.status).toBe(409);
      expect(corrected.body.message).toMatch(/submit it as an original/);
      expect(await snapshot(claimId)).toEqual(before);
    }

    const { claim } = await paidClaim();
    await app.db.claim.update({ where: { id: claim.claimId }, data: { payerClaimId: null } });
    const before = await snapshot(claim.claimId);
    const corrected = await post(`/api/claims/${claim.claimId}/correct`, { placeOfService: '22' });
    expect(corrected.status).toBe(422);
    expect(corrected.body.code).toBe('UNPROCESSABLE');
    expect((await post(`/api/claims/${claim.claimId}/void`, { reason: 'x' })).status).toBe(422);
    expect(await snapshot(claim.claimId)).toEqual(before);
  });

  it('corrects a paid claim: a replacement (7, REF*F8) is sent, and its acceptance closes the original', async () => {
    const { claim } = await paidClaim();
    const idempotencyKey = uid('fix');
    const lines = [
      { procedureCode: '99214', modifiers: ['25'], diagnosisPointers: [1, 2], units: 1, chargeCents: 15_000 },
    ];
    const res = await post(`/api/claims/${claim.claimId}/correct`, { lines, idempotencyKey });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      status: 'accepted',
      frequency: '7',
      replacesClaimId: claim.claimId,
      payerRank: 'primary',
      totalChargeCents: 15_000,
      diagnoses: claim.diagnoses,
    });
    const replacementId = res.body.claimId as string;
    expect(replacementId).toMatch(/^clm_[0-9a-f]{16}$/);
    const x12 = await sent837(replacementId);
    expect(x12).toContain(`CLM*${replacementId}*150***11:B:7*Y*A*Y*Y~`);
    expect(x12).toContain(`REF*F8*${claim.payerClaimId}~`);

    const original = await claimOf(claim.claimId);
    expect(original.status).toBe('closed');
    expect(original.statusReason).toContain(replacementId);
    expect(original.paidCents).toBe(claim.paidCents); // money moves only through 835s
    expect(original.relatedClaims).toEqual([
      expect.objectContaining({ claimId: replacementId, relation: 'replaced_by' }),
    ]);
    expect((await claimOf(replacementId)).relatedClaims).toEqual([
      expect.objectContaining({ claimId: claim.claimId, relation: 'replaces', status: 'closed' }),
    ]);

    const again = await post(`/api/claims/${claim.claimId}/correct`, { lines, idempotencyKey });
    expect(again.status).toBe(409);
    const closed = await post(`/api/claims/${claim.claimId}/void`, { reason: 'late' });
    expect(closed.status).toBe(409);
  });

  it('refuses a correction whose pointers miss the diagnoses (400), writing nothing', async () => {
    const { claim } = await paidClaim();
    const before = await snapshot(claim.claimId);
    const res = await post(`/api/claims/${claim.claimId}/correct`, { diagnoses: ['J02.9'] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(await snapshot(claim.claimId)).toEqual(before);
  });

  it('voids a paid claim: the void (8, REF*F8) is accepted, and it and the original are closed', async () => {
    const { claim } = await paidClaim();
    const res = await post(`/api/claims/${claim.claimId}/void`, { reason: 'Billed to the wrong patient' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ status: 'closed', frequency: '8', replacesClaimId: claim.claimId });
    const x12 = await sent837(res.body.claimId);
    expect(x12).toContain(`CLM*${res.body.claimId}*160***11:B:8*`);
    expect(x12).toContain(`REF*F8*${claim.payerClaimId}~`);
    const original = await claimOf(claim.claimId);
    expect(original).toMatchObject({ status: 'closed', statusReason: expect.stringContaining(res.body.claimId) });
    expect(original.relatedClaims).toEqual([
      expect.objectContaining({ claimId: res.body.claimId, relation: 'voided_by' }),
    ]);
    const created = (await claimOf(res.body.claimId)).timeline[0];
    expect(created.detail).toMatchObject({ voids: claim.claimId, reason: 'Billed to the wrong patient' });
  });

  it('keeps a secondary coverage on file beside the primary (PUT coverage rank), audited', async () => {
    const patient = await readyPatient(app);
    const noScope = await put(reader, `/api/patients/${patient.id}/coverage`, {
      payerId: SECONDARY_PAYER,
      memberId: 'DEMO-ACTIVE-S1',
      rank: 'secondary',
    });
    expect(noScope.status).toBe(403);
    const elsewhere = await put(other, `/api/patients/${patient.id}/coverage`, {
      payerId: SECONDARY_PAYER,
      memberId: 'DEMO-ACTIVE-S1',
      rank: 'secondary',
    });
    expect(elsewhere.status).toBe(403);
    const res = await put(billing, `/api/patients/${patient.id}/coverage`, {
      payerId: SECONDARY_PAYER,
      memberId: 'DEMO-ACTIVE-S1',
      groupNumber: 'SEC1',
      rank: 'secondary',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ rank: 'secondary', payerId: SECONDARY_PAYER, memberId: 'DEMO-ACTIVE-S1' });
    const admin = await signIn(app, 'admin@northside.test');
    const record = await admin.get(`/api/patients/${patient.id}`);
    expect(record.status, record.text).toBe(200);
    expect(record.body.coverage).toMatchObject({ payerId: '60054', memberId: patient.coverageMemberId });
    expect(record.body.secondaryCoverage).toMatchObject({
      payerId: SECONDARY_PAYER,
      memberId: 'DEMO-ACTIVE-S1',
      groupNumber: 'SEC1',
      relationship: '18',
    });
    const badRank = await put(billing, `/api/patients/${patient.id}/coverage`, {
      payerId: SECONDARY_PAYER,
      memberId: 'X',
      rank: 'tertiary',
    });
    expect(badRank.status).toBe(400);
  });

  it('bills the secondary after the primary paid with a balance, and the sandbox pays half of it', async () => {
    const { patient, claim } = await paidClaim();
    // The primary allowed $128.00, paid $108.00, adjusted $32.00 (CO-45): $20.00 (the copay) is left.
    expect(claim).toMatchObject({ paidCents: 10_800, adjustmentCents: 3_200, patientResponsibilityCents: 2_000 });
    const path = `/api/claims/${claim.claimId}/secondary`;
    const refused = async (expected: RegExp) => {
      const before = await snapshot(claim.claimId);
      const res = await post(path, {});
      expect(res.status, res.text).toBe(409);
      expect(res.body).toMatchObject({ code: 'NOT_EXECUTABLE', message: expect.stringMatching(expected) });
      expect(await snapshot(claim.claimId)).toEqual(before);
    };
    await refused(/no secondary coverage/);
    const secondaryMember = `DEMO-ACTIVE-${uid('s').slice(2).toUpperCase()}`;
    const saved = await put(billing, `/api/patients/${patient.id}/coverage`, {
      payerId: SECONDARY_PAYER,
      memberId: secondaryMember,
      rank: 'secondary',
    });
    expect(saved.status).toBe(200);
    await refused(/active eligibility check/);
    await activeCheck(app, patient.id, secondaryMember, SECONDARY_PAYER);

    expect((await post(path, {}, reader, readerStepUp)).status).toBe(403);
    expect((await billing.post(path, {})).status).toBe(401);
    expect((await post(path, {}, other, otherStepUp)).status).toBe(404);

    const res = await post(path, { idempotencyKey: uid('sec') });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      status: 'accepted',
      payerRank: 'secondary',
      primaryClaimId: claim.claimId,
      frequency: '1',
      payerId: SECONDARY_PAYER,
      memberId: secondaryMember,
    });
    const secondaryId = res.body.claimId as string;
    const x12 = await sent837(secondaryId);
    expect(x12).toContain(`SBR*S*18******`);
    expect(x12).toContain(`NM1*IL*1*`);
    expect(x12).toContain(`*MI*${secondaryMember}~`);
    expect(x12).toContain(`NM1*PR*2*`);
    expect(x12).toContain(`*PI*${SECONDARY_PAYER}~`);
    expect(x12).toContain('AMT*D*108~');
    expect(x12).toContain('OI***Y***Y~');
    expect(x12).toContain(`*MI*${patient.coverageMemberId}~`);
    expect(x12).toContain('*PI*60054~');
    expect(x12).toMatch(
      /SVD\*60054\*80\*HC:99213:25\*\*1~\s*CAS\*CO\*45\*25~\s*CAS\*PR\*3\*20~\s*DTP\*573\*D8\*\d{8}~/,
    );
    expect(x12).toMatch(/SVD\*60054\*28\*HC:87880\*\*1~\s*CAS\*CO\*45\*7~\s*DTP\*573\*D8\*\d{8}~/);
    // The remaining patient liability (AMT*EAF) in each 2430, zero included, and so neither in 2320 nor a DTP*573
    // in 2330B (the primary gave line detail).
    expect(x12).toMatch(/CAS\*PR\*3\*20~\s*DTP\*573\*D8\*\d{8}~\s*AMT\*EAF\*20~\s*LX\*2~/);
    expect(x12).toMatch(/CAS\*CO\*45\*7~\s*DTP\*573\*D8\*\d{8}~\s*AMT\*EAF\*0~\s*SE\*/);
    expect(x12).toMatch(/AMT\*D\*108~\s*OI\*/);
    expect(x12.match(/DTP\*573/g)).toHaveLength(2);

    // The sandbox secondary's 835 (CLP02 2): half of the $20.00 balance, the rest PR-2.
    const paid = await until(
      () => claimOf(secondaryId),
      (c) => c.status !== 'accepted',
    );
    expect(paid).toMatchObject({ status: 'paid', paidCents: 1_000, patientResponsibilityCents: 1_000 });
    const remitted = await app.db.remittanceClaim.findFirst({ where: { claimId: secondaryId } });
    expect(remitted?.statusCode).toBe('2');
    // The patient owes what is left of the visit once: the primary's bill drops by what the secondary paid, the
    // secondary's PR-2 is not billed again, and the visit's charge is booked once.
    const bills = await app.db.patientBill.findMany({ where: { patientId: patient.id } });
    expect(bills.map((b) => [b.claimId, Number(b.amountCents)])).toEqual([[claim.claimId, 1_000]]);
    expect(
      await app.db.ledgerTransaction.count({ where: { kind: 'claim.charge', reference: `claim:${secondaryId}` } }),
    ).toBe(0);
    expect((await claimOf(claim.claimId)).relatedClaims).toEqual([
      expect.objectContaining({ claimId: secondaryId, relation: 'secondary' }),
    ]);
    expect((await claimOf(secondaryId)).relatedClaims).toEqual([
      expect.objectContaining({ claimId: claim.claimId, relation: 'primary' }),
    ]);

    await refused(/already bills the secondary/);
    const ofSecondary = await post(`/api/claims/${secondaryId}/secondary`, {});
    expect(ofSecondary.status).toBe(409);
  });

  it("refuses a correction that changes a secondary claim's services (422), and corrects its other fields", async () => {
    const { patient, claim } = await paidClaim();
    await addSecondaryCoverage(patient.id);
    const billed = await post(`/api/claims/${claim.claimId}/secondary`, {});
    expect(billed.status, billed.text).toBe(201);
    const secondaryId = billed.body.claimId as string;
    const secondary = await until(
      () => claimOf(secondaryId),
      (c) => c.status !== 'accepted',
    );
    expect(secondary).toMatchObject({ status: 'paid', payerClaimId: expect.stringMatching(/^SBXPCN/) });

    const path = `/api/claims/${secondaryId}/correct`;
    const lines = claimBody(patient.id).lines;
    const before = await snapshot(secondaryId);
    for (const change of [
      { lines: [{ ...lines[0]!, chargeCents: 15_000 }, lines[1]!] },
      { lines: [lines[1]!, lines[0]!] },
      { lines: [lines[0]!] },
      { lines: [{ ...lines[0]!, modifiers: [] }, lines[1]!] },
      { serviceDate: daysAgo(4) },
    ]) {
      const res = await post(path, change);
      expect(res.status, res.text).toBe(422);
      expect(res.body).toMatchObject({
        code: 'UNPROCESSABLE',
        message: expect.stringMatching(/^A secondary claim's lines carry the primary payer's adjudication/),
      });
    }
    expect(await snapshot(secondaryId)).toEqual(before);

    // The same services with new diagnosis pointers and place of service: sent as a replacement that still carries
    // the primary's adjudication of each line.
    const res = await post(path, {
      placeOfService: '22',
      lines: [{ ...lines[0]!, diagnosisPointers: [1] }, lines[1]!],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      status: 'accepted',
      frequency: '7',
      replacesClaimId: secondaryId,
      payerRank: 'secondary',
      primaryClaimId: claim.claimId,
    });
    const x12 = await sent837(res.body.claimId);
    expect(x12).toContain(`*160***22:B:7*Y*A*Y*Y~`);
    expect(x12).toContain(`REF*F8*${secondary.payerClaimId}~`);
    expect(x12).toMatch(/SVD\*60054\*80\*HC:99213:25\*\*1~/);
  });

  it('refuses a secondary whose primary coverage names no subscriber (422 SCRUB_BLOCKED, 2330A NM103)', async () => {
    const { patient, claim } = await paidClaim(undefined, (patientId) =>
      app.db.patient.update({
        where: { id: patientId },
        data: { coverageRelationship: '19', coverageSubscriber: { firstName: 'Sam', lastName: 'Holder' } },
      }),
    );
    await app.db.patient.update({ where: { id: patient.id }, data: { coverageSubscriber: { firstName: 'Sam' } } });
    await addSecondaryCoverage(patient.id);
    const before = await snapshot(claim.claimId);
    const res = await post(`/api/claims/${claim.claimId}/secondary`, {});
    expect(res.status, res.text).toBe(422);
    expect(res.body).toMatchObject({
      code: 'SCRUB_BLOCKED',
      issues: [
        {
          path: 'otherPayer.subscriber.name.lastName',
          edit: 'demographics-complete',
          message: expect.stringContaining("the primary coverage's subscriber"),
        },
      ],
    });
    expect(await snapshot(claim.claimId)).toEqual(before);
  });

  it('refuses a secondary before the primary 835 (409), writing nothing', async () => {
    const patient = await readyPatient(app);
    const created = (await billing.post('/api/claims', claimBody(patient.id))).body;
    const draft = await post(`/api/claims/${created.claimId}/secondary`, {});
    expect(draft.status).toBe(409);
    await app.db.patient.update({
      where: { id: patient.id },
      data: { secondaryPayerId: SECONDARY_PAYER, secondaryMemberId: 'DEMO-ACTIVE-S2' },
    });
    await activeCheck(app, patient.id, 'DEMO-ACTIVE-S2', SECONDARY_PAYER);
    // Paid by hand with no 835 on file: nothing tells what the primary decided.
    await app.db.claim.update({ where: { id: created.claimId }, data: { status: 'paid', paidCents: 100n } });
    const before = await snapshot(created.claimId);
    const res = await post(`/api/claims/${created.claimId}/secondary`, {});
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/835/);
    expect(await snapshot(created.claimId)).toEqual(before);
  });
});
