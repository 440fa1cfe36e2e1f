// Drafts obey the claim body rules at create and edit, not only at submit (DECISIONS "Security findings of
// 2026-11-28", issue 31 items 1 and 3): units > 0, charges > 0 and at most 99,999,999 cents, the claim's total at
// most the same, 1 to 50 lines, pointers into the diagnoses, codes without X12 delimiters. Each is a 400 naming the
// field, and nothing is stored or changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { signIn, type HttpClient } from '../support/http';
import { createPatient } from '../support/factories';
import { stepUpHeader } from '../support/step-up-claim';

const NORTH = { orgId: 'org_demo', clinicId: 'clinic_north', clinicName: 'Northside Clinic' };
const CAP = 99_999_999;
const anyText = expect.any(String);

const line = (overrides: Record<string, unknown> = {}) => ({
  procedureCode: '99213',
  diagnosisPointers: [1],
  units: 1,
  chargeCents: 12_500,
  ...overrides,
});
const body = (patientId: string, overrides: Record<string, unknown> = {}) => ({
  patientId,
  serviceDate: '2026-11-20',
  diagnoses: ['J02.9', 'R50.9'],
  lines: [line({ diagnosisPointers: [1, 2] }), line({ procedureCode: '87880', chargeCents: 3_500 })],
  ...overrides,
});

/** `editPaths`: where an edit's 400 names other fields than a create's (an edit sends only what it changes). */
type Case = { rule: string; change: Record<string, unknown>; paths: string[]; editPaths?: string[] };

// Each breaks one rule; `paths` are the fields the 400 names (body.<path>).
const CASES: Case[] = [
  { rule: 'units of 0', change: { lines: [line({ units: 0 })] }, paths: ['lines.0.units'] },
  { rule: 'negative units', change: { lines: [line({ units: -1 })] }, paths: ['lines.0.units'] },
  { rule: 'a charge of 0', change: { lines: [line({ chargeCents: 0 })] }, paths: ['lines.0.chargeCents'] },
  { rule: 'a negative charge', change: { lines: [line({ chargeCents: -1 })] }, paths: ['lines.0.chargeCents'] },
  {
    rule: 'a line charge one cent past the cap',
    change: { lines: [line({ chargeCents: CAP + 1 })] },
    // The claim's total (the lines' sum) is past the cap too.
    paths: ['lines.0.chargeCents', 'lines'],
    editPaths: ['lines.0.chargeCents'],
  },
  {
    rule: 'a line charge of 1e11',
    change: { lines: [line({ chargeCents: 1e11 })] },
    paths: ['lines.0.chargeCents', 'lines'],
    editPaths: ['lines.0.chargeCents'],
  },
  {
    rule: "lines at the cap each whose sum passes it (the claim's total)",
    change: { lines: [line({ chargeCents: CAP }), line({ chargeCents: 1 })] },
    paths: ['lines'],
  },
  { rule: 'a totalCharge past the cap', change: { totalCharge: '1000000.00' }, paths: ['totalCharge'] },
  { rule: 'no lines', change: { lines: [] }, paths: ['lines'] },
  {
    rule: '51 lines',
    change: { lines: Array.from({ length: 51 }, () => line({ chargeCents: 100 })) },
    paths: ['lines'],
  },
  {
    rule: 'no diagnoses',
    change: { diagnoses: [] },
    // At create the lines' pointers then point at nothing, and are named too.
    paths: ['diagnoses', 'lines.0.diagnosisPointers.0', 'lines.0.diagnosisPointers.1', 'lines.1.diagnosisPointers.0'],
    editPaths: ['diagnoses'],
  },
  { rule: 'pointer 0', change: { lines: [line({ diagnosisPointers: [0] })] }, paths: ['lines.0.diagnosisPointers.0'] },
  {
    rule: 'pointer -1',
    change: { lines: [line({ diagnosisPointers: [-1] })] },
    paths: ['lines.0.diagnosisPointers.0'],
  },
  {
    rule: 'pointer 5 with two diagnoses',
    change: { lines: [line({ diagnosisPointers: [5] })] },
    paths: ['lines.0.diagnosisPointers.0'],
  },
  { rule: 'no pointer', change: { lines: [line({ diagnosisPointers: [] })] }, paths: ['lines.0.diagnosisPointers'] },
  {
    rule: 'five pointers',
    change: { lines: [line({ diagnosisPointers: [1, 2, 1, 2, 1] })] },
    paths: ['lines.0.diagnosisPointers'],
  },
  {
    rule: 'an X12 delimiter in a procedure code',
    change: { lines: [line({ procedureCode: '99213~NM1' })] },
    paths: ['lines.0.procedureCode'],
  },
  {
    rule: 'an X12 delimiter in a modifier',
    change: { lines: [line({ modifiers: ['2*'] })] },
    paths: ['lines.0.modifiers.0'],
  },
  { rule: 'an X12 delimiter in a diagnosis', change: { diagnoses: ['J02:9', 'R50.9'] }, paths: ['diagnoses.0'] },
];

describe('claim body rules at create and edit', () => {
  let app: TestApp;
  let billing: HttpClient;
  let patientId: string;
  beforeAll(async () => {
    app = await startApp();
    billing = await signIn(app, 'billing@northside.test');
    patientId = (await createPatient(app.db, NORTH)).id;
  });
  afterAll(async () => {
    await app?.stop();
  });

  const expectRefused = (res: { status: number; body: unknown }, paths: string[]) => {
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', message: anyText, correlationId: anyText });
    const named = (res.body as { issues: { path: string; message: string }[] }).issues.map((i) => i.path);
    expect([...new Set(named)].sort()).toEqual(paths.map((p) => `body.${p}`).sort());
  };

  it.each(CASES)('refuses $rule at create (400 naming the field), storing nothing', async ({ change, paths }) => {
    const before = await app.db.claim.count({ where: { patientId } });
    const res = await billing.post('/api/claims', body(patientId, change));
    expectRefused(res, paths);
    expect(await app.db.claim.count({ where: { patientId } })).toBe(before);
  });

  it.each(CASES)('refuses $rule at edit (400 naming the field), changing nothing', async (c) => {
    const { change } = c;
    const created = await billing.post('/api/claims', body(patientId));
    expect(created.status, created.text).toBe(201);
    const claimId = created.body.claimId as string;
    const stored = await billing.get(`/api/claims/${claimId}`);
    const res = await billing.patch(`/api/claims/${claimId}`, change);
    expectRefused(res, c.editPaths ?? c.paths);
    expect((await billing.get(`/api/claims/${claimId}`)).body).toEqual(stored.body);
  });

  it('accepts a line and a total exactly at the cap', async () => {
    const atCap = { lines: [line({ chargeCents: CAP })], totalCharge: '999999.99' };
    const created = await billing.post('/api/claims', body(patientId, atCap));
    expect(created.status, created.text).toBe(201);
    expect(created.body.totalChargeCents).toBe(CAP);
    const edited = await billing.patch(`/api/claims/${created.body.claimId}`, {
      lines: [line({ chargeCents: CAP - 1 }), line({ chargeCents: 1 })],
      totalCharge: null,
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.totalChargeCents).toBe(CAP);
  });

  it('checks an edit against the stored draft: new pointers against its diagnoses, fewer diagnoses against its lines', async () => {
    const created = await billing.post('/api/claims', body(patientId));
    const claimId = created.body.claimId as string;
    const stored = await billing.get(`/api/claims/${claimId}`);
    // The draft has two diagnoses; a line pointing at a third is refused without the diagnoses in the edit.
    expectRefused(await billing.patch(`/api/claims/${claimId}`, { lines: [line({ diagnosisPointers: [3] })] }), [
      'lines.0.diagnosisPointers.0',
    ]);
    // Its first line points at diagnosis 2: one diagnosis left would leave that pointer dangling.
    expectRefused(await billing.patch(`/api/claims/${claimId}`, { diagnoses: ['J02.9'] }), [
      'lines.0.diagnosisPointers.1',
    ]);
    expect((await billing.get(`/api/claims/${claimId}`)).body).toEqual(stored.body);
    const fine = await billing.patch(`/api/claims/${claimId}`, { lines: [line({ diagnosisPointers: [2] })] });
    expect(fine.status, fine.text).toBe(200);
  });

  it('refuses the same rules on inline submit, before any scrub or send', async () => {
    const stepUp = await stepUpHeader(app, 'billing@northside.test');
    const before = await app.db.claim.count({ where: { patientId } });
    const res = await billing.post(
      '/api/claims/submit',
      {
        ...body(patientId, { lines: [line({ chargeCents: CAP + 1 }), line({ diagnosisPointers: [3] })] }),
        totalCharge: '1000000.00',
      },
      { headers: stepUp },
    );
    expectRefused(res, ['lines.0.chargeCents', 'lines.1.diagnosisPointers.0', 'lines', 'totalCharge']);
    expect(await app.db.claim.count({ where: { patientId } })).toBe(before);
    expect(await app.db.claimTransmission.count()).toBe(0);
  });
});
