// The primary's adjudication a secondary claim carries, read from a posted 835 in a real PostgreSQL database and
// written as an 837P: 835 lines are matched to the claim's by procedure code and modifiers, whatever their order;
// without line detail that matches (none sent, an unmatched line, another charge) the claim level carries all of it,
// and either way the 837P balances as the TR3 balances it.
import { describe, expect, it } from 'vitest';
import { setUpTwoClinicDb } from '@/test/support/test-db';
import { createClaim } from '@/test/support/remittances';
import { uid } from '@/test/support/factories';
import { build837p } from '../x12/build-837p';
import { assembleProfessionalClaim, type ClaimRecord } from './assemble-professional-claim';
import { loadPrimaryAdjudication } from './second-pass-facts';

const handle = setUpTwoClinicDb();

type Cas = [group: string, reason: string, amountCents: number];
type Svc = { procedureCode: string; modifiers?: string[]; chargeCents: number; paidCents: number; cas: Cas[] };

// 99213-25 $125.00 and 87880 $35.00, as the primary claim sent them.
const LINES = [
  { procedureCode: '99213', modifiers: ['25'], units: 1, chargeCents: 12_500n },
  { procedureCode: '87880', modifiers: [], units: 1, chargeCents: 3_500n },
];
const OFFICE_VISIT: Svc = {
  procedureCode: '99213',
  modifiers: ['25'],
  chargeCents: 12_500,
  paidCents: 8_000,
  cas: [
    ['CO', '45', 2_500],
    ['PR', '3', 2_000],
  ],
};
const STREP_TEST: Svc = { procedureCode: '87880', chargeCents: 3_500, paidCents: 2_800, cas: [['CO', '45', 700]] };

/** A primary claim with LINES and its posted 835 CLP (status 1), claim-level CAS first, as posting stores them. */
async function primaryWith835(svcs: Svc[], claimCas: Cas[] = []) {
  const { db, north } = handle;
  const claim = await createClaim(db, north, {
    status: 'paid',
    lines: LINES.map((line) => ({ procedureCode: line.procedureCode, chargeCents: Number(line.chargeCents) })),
  });
  const stored = (line: number | null) => (cas: Cas) => ({
    group: cas[0],
    reason: cas[1],
    amountCents: cas[2],
    description: '',
    line,
  });
  // CLP03 and CLP04 as a balanced 835 gives them: the lines' charges (the claim's without lines), less every CAS.
  const chargeCents = svcs.length ? svcs.reduce((sum, svc) => sum + svc.chargeCents, 0) : 16_000;
  const allCas = [...claimCas, ...svcs.flatMap((svc) => svc.cas)];
  const paidCents = chargeCents - allCas.reduce((sum, cas) => sum + cas[2], 0);
  await db.remittance.create({
    data: {
      clinicId: north.clinicId,
      payerId: '60054',
      payerName: 'Aetna',
      traceNumber: uid('trn'),
      paymentMethod: 'ACH',
      paymentCents: BigInt(paidCents),
      paymentDate: '2026-11-20',
      source: 'upload',
      x12: '',
      correlationId: 'test',
      claims: {
        create: {
          clinicId: north.clinicId,
          claimId: claim.id,
          position: 1,
          statusCode: '1',
          chargeCents: BigInt(chargeCents),
          paidCents: BigInt(paidCents),
          patientResponsibilityCents: 0n,
          adjustments: [...claimCas.map(stored(null)), ...svcs.flatMap((svc, i) => svc.cas.map(stored(i + 1)))],
          lines: svcs.map((svc) => ({
            procedureCode: svc.procedureCode,
            modifiers: svc.modifiers ?? [],
            chargeCents: svc.chargeCents,
            paidCents: svc.paidCents,
            units: 1,
          })),
        },
      },
    },
  });
  return claim.id;
}

/** The secondary's 837P with the primary's adjudication, as submit writes it (throws if it does not balance). */
function secondary837p(adjudication: Awaited<ReturnType<typeof loadPrimaryAdjudication>>): string {
  const claim: ClaimRecord = {
    id: 'clm_0123456789abcdef',
    totalChargeCents: 16_000n,
    serviceDate: '2026-11-02',
    placeOfService: '11',
    diagnoses: ['J02.9'],
    renderingNpi: null,
    payerRank: 'secondary',
    lines: LINES.map((line) => ({ ...line, diagnosisPointers: [1], serviceDate: null })),
  };
  const address = { line: ['10 Elm Street'], city: 'Albany', state: 'NY', postalCode: '12207' };
  const professionalClaim = assembleProfessionalClaim(
    claim,
    {
      billingNpi: '1234567893',
      billingProviderName: 'Northside Clinic',
      billingTaxonomy: '261QP2300X',
      billingTaxId: '123456789',
      billingAddress: { line1: '100 Main Street', city: 'Albany', state: 'NY', postalCode: '122071234' },
    },
    {
      firstName: 'Avery',
      lastName: 'North',
      birthDate: '1971-02-11',
      gender: 'female',
      address,
      coverageMemberId: 'DEMO-ACTIVE-1',
      coveragePayerId: '60054',
      coveragePayerName: 'Aetna',
      coverageGroupNumber: null,
      coverageRelationship: '18',
      coverageSubscriber: null,
      secondaryMemberId: 'DEMO-ACTIVE-S1',
      secondaryPayerId: '87726',
      secondaryPayerName: 'Second Plan',
    },
    { primary: adjudication },
  );
  return build837p({
    interchangeControlNumber: 1,
    groupControlNumber: 1,
    transactionControlNumber: '0001',
    senderId: 'SENDER',
    receiverId: 'RECEIVER',
    createdAt: new Date('2026-11-23T12:00:00Z'),
    batchId: claim.id,
    submitter: { id: 'SENDER', name: 'Northside Clinic', contactName: 'Billing', phone: '5555550100' },
    receiver: { id: 'RECEIVER', name: 'Clearinghouse' },
    claim: professionalClaim,
  });
}

const load = (claimId: string) => loadPrimaryAdjudication(handle.db, handle.north.clinicId, claimId, LINES);
/** The claim-level-only reading: every line paid 0 without adjustments, dated by the 835. */
const withoutLineDetail = LINES.map((line) => ({
  procedureCode: line.procedureCode,
  modifiers: line.modifiers,
  paidCents: 0,
  units: 1,
  adjustments: [],
  adjudicationDate: '2026-11-20',
}));

describe('loadPrimaryAdjudication', () => {
  it("matches the 835's lines to the claim's by procedure code and modifiers when the 835 lists them in another order", async () => {
    const adjudication = await load(await primaryWith835([STREP_TEST, OFFICE_VISIT]));
    expect(adjudication).toMatchObject({ paidCents: 10_800, adjustments: [] });
    expect(adjudication!.lines).toEqual([
      {
        procedureCode: '99213',
        modifiers: ['25'],
        paidCents: 8_000,
        units: 1,
        adjustments: [
          { group: 'CO', reason: '45', amountCents: 2_500 },
          { group: 'PR', reason: '3', amountCents: 2_000 },
        ],
        adjudicationDate: '2026-11-20',
      },
      {
        procedureCode: '87880',
        modifiers: [],
        paidCents: 2_800,
        units: 1,
        adjustments: [{ group: 'CO', reason: '45', amountCents: 700 }],
        adjudicationDate: '2026-11-20',
      },
    ]);
    const x12 = secondary837p(adjudication);
    expect(x12).toContain(
      'SV1*HC:99213:25*125*UN*1***1~\nDTP*472*D8*20261102~\nSVD*60054*80*HC:99213:25**1~\nCAS*CO*45*25~\nCAS*PR*3*20~\n' +
        'DTP*573*D8*20261120~\nAMT*EAF*20~\nLX*2~',
    );
    expect(x12).toContain('SVD*60054*28*HC:87880**1~\nCAS*CO*45*7~\nDTP*573*D8*20261120~\nAMT*EAF*0~\nSE*');
  });

  it('matches a line whose modifier the payer dropped by its code, and writes the code the payer adjudicated', async () => {
    const adjudication = await load(await primaryWith835([{ ...OFFICE_VISIT, modifiers: [] }, STREP_TEST]));
    expect(adjudication!.lines.map((line) => [line.procedureCode, line.modifiers, line.paidCents])).toEqual([
      ['99213', [], 8_000],
      ['87880', [], 2_800],
    ]);
    expect(secondary837p(adjudication)).toContain('SVD*60054*80*HC:99213**1~');
  });

  it('matches a line by position only when the 835 names no procedure for it', async () => {
    const adjudication = await load(await primaryWith835([{ ...OFFICE_VISIT, procedureCode: '' }, STREP_TEST]));
    expect(adjudication!.lines.map((line) => [line.procedureCode, line.modifiers, line.paidCents])).toEqual([
      ['99213', ['25'], 8_000],
      ['87880', [], 2_800],
    ]);
  });

  it('carries everything at the claim level when the 835 has no line detail: no 2430, DTP*573 in 2330B', async () => {
    const adjudication = await load(
      await primaryWith835(
        [],
        [
          ['CO', '45', 3_200],
          ['PR', '3', 2_000],
        ],
      ),
    );
    expect(adjudication).toMatchObject({
      paidCents: 10_800,
      adjustments: [
        { group: 'CO', reason: '45', amountCents: 3_200 },
        { group: 'PR', reason: '3', amountCents: 2_000 },
      ],
      lines: withoutLineDetail,
    });
    const x12 = secondary837p(adjudication);
    expect(x12).not.toContain('SVD*');
    expect(x12).toContain('CAS*CO*45*32~\nCAS*PR*3*20~\nAMT*D*108~\nAMT*EAF*20~\nOI***Y***Y~');
    expect(x12).toContain('*PI*60054~\nDTP*573*D8*20261120~\nLX*1~');
    expect(x12.match(/DTP\*573/g)).toHaveLength(1);
  });

  it.each<[string, Svc[]]>([
    ['a line the 835 adjudicated as another code', [{ ...OFFICE_VISIT, procedureCode: '99212' }, STREP_TEST]],
    [
      'a line the 835 split in two',
      [
        {
          ...OFFICE_VISIT,
          chargeCents: 10_000,
          paidCents: 6_000,
          cas: OFFICE_VISIT.cas.map(([g, r]) => [g, r, 2_000]),
        },
        { ...OFFICE_VISIT, chargeCents: 2_500, paidCents: 2_000, cas: [['CO', '45', 500]] },
        STREP_TEST,
      ],
    ],
  ])('moves every adjustment to the claim level for %s, so the 837P still balances', async (_case, svcs) => {
    const adjudication = await load(await primaryWith835(svcs));
    expect(adjudication!.lines).toEqual(withoutLineDetail);
    const all = svcs.flatMap((svc) => svc.cas.map(([group, reason, amountCents]) => ({ group, reason, amountCents })));
    expect(adjudication).toMatchObject({ paidCents: 10_800, adjustments: all });
    const x12 = secondary837p(adjudication);
    expect(x12).not.toContain('SVD*');
    expect(x12).toContain('AMT*D*108~\nAMT*EAF*20~\nOI*');
  });

  it('refuses to write a secondary from an 835 that adjudicated other charges than the claim has', async () => {
    const other = {
      ...OFFICE_VISIT,
      chargeCents: 12_000,
      cas: [
        ['CO', '45', 2_000],
        ['PR', '3', 2_000],
      ] as Cas[],
    };
    const adjudication = await load(await primaryWith835([other, STREP_TEST]));
    expect(adjudication!.lines).toEqual(withoutLineDetail);
    expect(() => secondary837p(adjudication)).toThrow(
      new RangeError('otherPayer does not balance: CLM02 must equal AMT*D plus every CAS amount of 2320 and 2430'),
    );
  });

  it('leaves out a zero adjustment and writes a negative one as the 835 gave them', async () => {
    const adjudication = await load(
      await primaryWith835([
        {
          ...OFFICE_VISIT,
          paidCents: 8_250,
          cas: [
            ['CO', '45', 2_500],
            ['CO', '253', 0],
            ['OA', '94', -250],
            ['PR', '3', 2_000],
          ],
        },
        STREP_TEST,
      ]),
    );
    expect(secondary837p(adjudication)).toContain(
      'SVD*60054*82.5*HC:99213:25**1~\nCAS*CO*45*25~\nCAS*OA*94*-2.5~\nCAS*PR*3*20~\nDTP*573',
    );
  });

  it('is null without a posted primary 835', async () => {
    const { id } = await createClaim(handle.db, handle.north, { status: 'paid' });
    expect(await load(id)).toBeNull();
  });
});
