// Claim status follow-up over real HTTP and PostgreSQL (issue 21 item 3, DECISIONS "Recurring work"): claims
// submitted through a CAQH CORE clearinghouse (a local fake that counts the 276s it answers), their acceptance moved
// back in time in the database, and POST /api/jobs/claim-status-follow-up: one 276 per claim accepted 14 or more
// days ago with no 835, none for a claim with an 835 or accepted 13 days ago, none again within 7 days (nor from
// concurrent runs), again after 7 days, and only the named clinic with ?clinicId=.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { stepUpHeader } from '../support/step-up-claim';
import { HttpClient, signIn } from '../support/http';
import { createPatient, uid, type TestTenant } from '../support/factories';
import { clearinghouseEnv, startFakeClearinghouse, type FakeClearinghouse } from '../fakes/fake-clearinghouse';

const NORTH: TestTenant = { orgId: 'org_demo', clinicId: 'clinic_north', clinicName: 'Northside Clinic' };
const DAY_MS = 86_400_000;
const cron = { authorization: `Bearer ${TEST_SECRETS.CRON_SECRET}` };
const SERVICE_DATE = new Date(Date.now() - 20 * DAY_MS).toISOString().slice(0, 10);

type Run = { clinics: { clinicId: string; asked: { claimId: string; status: string }[]; failed: unknown[] }[] };

describe('claim status follow-up through a live CAQH CORE clearinghouse', () => {
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

  /** A claim submitted through the fake (837P, 999, 277CA: accepted), its acceptance moved `days` back. */
  async function acceptedClaim(days: number): Promise<string> {
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
    const res = await billing.post(
      '/api/claims/submit',
      {
        patientId: patient.id,
        serviceDate: SERVICE_DATE,
        diagnoses: ['J02.9'],
        lines: [{ procedureCode: '99213', diagnosisPointers: [1], units: 1, chargeCents: 12_500 }],
        totalCharge: '125.00',
      },
      { headers: stepUp },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('accepted');
    const claimId = res.body.claimId as string;
    const at = new Date(Date.now() - days * DAY_MS);
    await app.db.claim.update({ where: { id: claimId }, data: { submittedAt: at } });
    const moved = await app.db.claimEvent.updateMany({ where: { claimId, toStatus: 'accepted' }, data: { at } });
    expect(moved.count).toBeGreaterThan(0);
    return claimId;
  }

  const run = async (query = '') => {
    const res = await new HttpClient(app.url).request('POST', `/api/jobs/claim-status-follow-up${query}`, {
      headers: cron,
    });
    expect(res.status, res.text).toBe(200);
    return res.body as Run;
  };
  const asked = (ids: string[], from: number) => fake.statusRequests.slice(from).filter((id) => ids.includes(id));

  it('needs the cron bearer', async () => {
    const res = await new HttpClient(app.url).request('POST', '/api/jobs/claim-status-follow-up', {
      headers: { authorization: `Basic ${TEST_SECRETS.CRON_SECRET}` },
    });
    expect(res.status).toBe(401);
  });

  it('sends one 276 per quiet claim: none for a claim with an 835 or accepted 13 days ago, none again within 7 days', async () => {
    const quiet = await acceptedClaim(15);
    const quietToo = await acceptedClaim(14);
    const answered = await acceptedClaim(20);
    const recent = await acceptedClaim(13);
    // An 835 for the claim is on its transmissions (the payer answered; the claim is not quiet).
    await app.db.claimTransmission.create({
      data: {
        clinicId: NORTH.clinicId,
        claimId: answered,
        direction: 'in',
        kind: '835',
        controlNumber: '1',
        x12: 'ISA*',
        correlationId: 'test-setup',
      },
    });
    const ours = [quiet, quietToo, answered, recent];

    let from = fake.statusRequests.length;
    const first = await run();
    expect(asked(ours, from).sort()).toEqual([quiet, quietToo].sort());
    const north = first.clinics.find((c) => c.clinicId === NORTH.clinicId)!;
    expect(north.failed).toEqual([]);
    expect(north.asked.filter((a) => ours.includes(a.claimId))).toEqual(
      expect.arrayContaining([
        { claimId: quiet, status: 'accepted' },
        { claimId: quietToo, status: 'accepted' },
      ]),
    );
    // Through the one status path: the 276 and its 277 are on the claim's transmissions, the 277 in its history.
    const transmissions = await app.db.claimTransmission.findMany({
      where: { claimId: quiet },
      orderBy: { at: 'asc' },
    });
    expect(transmissions.map((t) => `${t.direction} ${t.kind}`)).toEqual([
      'out 837P',
      'in 999',
      'in 277CA',
      'out 276',
      'in 277',
    ]);

    from = fake.statusRequests.length;
    await run();
    expect(asked(ours, from)).toEqual([]);

    // Eight days later (the last ask moved back), the still quiet claim is asked again, once.
    await app.db.claimStatusFollowUp.update({
      where: { claimId: quiet },
      data: { askedAt: new Date(Date.now() - 8 * DAY_MS) },
    });
    from = fake.statusRequests.length;
    await run();
    expect(asked(ours, from)).toEqual([quiet]);
  });

  it('asks once when several runs race, and only for the named clinic with ?clinicId=', async () => {
    const claimId = await acceptedClaim(30);
    let from = fake.statusRequests.length;
    await run('?clinicId=clinic_south');
    expect(asked([claimId], from)).toEqual([]);

    from = fake.statusRequests.length;
    const runs = await Promise.all(Array.from({ length: 5 }, () => run(`?clinicId=${NORTH.clinicId}`)));
    expect(asked([claimId], from)).toEqual([claimId]);
    const reported = runs.flatMap((r) => r.clinics.flatMap((c) => c.asked)).filter((a) => a.claimId === claimId);
    expect(reported).toHaveLength(1);
  });

  it('gives the slot back when the 276 cannot be sent, so the next run asks', async () => {
    const claimId = await acceptedClaim(16);
    fake.setBehaviour('http-500');
    try {
      const failed = await run(`?clinicId=${NORTH.clinicId}`);
      expect(failed.clinics[0]!.failed).toEqual(
        expect.arrayContaining([expect.objectContaining({ claimId, code: 'TRANSPORT_FAILED' })]),
      );
    } finally {
      fake.setBehaviour('ok');
    }
    const from = fake.statusRequests.length;
    await run(`?clinicId=${NORTH.clinicId}`);
    expect(asked([claimId], from)).toEqual([claimId]);
  });
});
