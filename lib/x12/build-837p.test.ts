import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build837p, type Build837pInput } from './build-837p';
import { formatAmount } from './format-amount';
import type { OtherPayer, ServiceLine } from './professional-claim';
import { read837p } from './read-837p';
import { readInterchange } from './read-interchange';
import { X12ReadError } from './x12-read-error';

// The golden files were written by hand from the 005010X222A1 TR3 (its examples' segment order and element
// positions), not by the builder, so a symmetric bug in builder and reader cannot hide.
const golden = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');

const clinic = {
  senderId: 'CLINICSUBMIT',
  receiverId: 'CLEARINGHOUSE',
  submitter: { id: 'CLINICSUBMIT', name: 'NORTHSIDE CLINIC', contactName: 'BILLING OFFICE', phone: '5555550100' },
  receiver: { id: 'CLEARINGHOUSE', name: 'DEMO CLEARINGHOUSE' },
};
const billingProvider = {
  npi: '1234567893',
  name: 'NORTHSIDE CLINIC',
  taxonomyCode: '207Q00000X',
  taxId: '123456789',
  address: { line1: '100 MAIN ST', city: 'SPRINGFIELD', state: 'IL', postalCode: '627010001' },
};
const payer = { id: '60054', name: 'DEMO HEALTH PLAN' };

const subscriberOneLine: Build837pInput = {
  ...clinic,
  interchangeControlNumber: 101,
  groupControlNumber: 101,
  transactionControlNumber: '0001',
  usageIndicator: 'T',
  createdAt: new Date('2025-03-04T14:30:00Z'),
  batchId: 'BATCH101',
  claim: {
    claimId: 'clm_0a1b2c3d4e5f6071',
    totalChargeCents: 12500,
    placeOfService: '11',
    diagnoses: ['J069'],
    lines: [
      {
        procedureCode: '99213',
        modifiers: [],
        diagnosisPointers: [1],
        units: 1,
        chargeCents: 12500,
        serviceDate: '2025-03-03',
      },
    ],
    billingProvider,
    payer,
    subscriber: {
      memberId: 'W123456789',
      groupNumber: 'GRP1001',
      name: { lastName: 'DOE', firstName: 'JANE' },
      demographics: {
        birthDate: '1980-01-15',
        sex: 'F',
        address: { line1: '12 ELM ST', city: 'SPRINGFIELD', state: 'IL', postalCode: '62704' },
      },
    },
    patient: null,
  },
};

const dependentSeveralLines: Build837pInput = {
  ...clinic,
  interchangeControlNumber: 102,
  groupControlNumber: 102,
  transactionControlNumber: '0002',
  usageIndicator: 'T',
  createdAt: new Date('2025-03-04T14:31:00Z'),
  batchId: 'BATCH102',
  claim: {
    claimId: 'clm_1b2c3d4e5f607182',
    totalChargeCents: 41075,
    placeOfService: '11',
    diagnoses: ['S93401A', 'J069', 'R509'],
    lines: [
      {
        procedureCode: '99214',
        modifiers: ['25'],
        diagnosisPointers: [1, 2, 3],
        units: 1,
        chargeCents: 20000,
        serviceDate: '2025-03-03',
      },
      {
        procedureCode: '29540',
        modifiers: ['RT'],
        diagnosisPointers: [1],
        units: 1,
        chargeCents: 15050,
        serviceDate: '2025-03-03',
      },
      {
        procedureCode: '97110',
        modifiers: ['GP', '59'],
        diagnosisPointers: [1, 3],
        units: 2,
        chargeCents: 6025,
        serviceDate: '2025-03-04',
      },
    ],
    billingProvider: { ...billingProvider, address: { ...billingProvider.address, line2: 'SUITE 200' } },
    renderingProvider: {
      npi: '1245319599',
      name: { lastName: 'SMITH', firstName: 'ANNA' },
      taxonomyCode: '208000000X',
    },
    payer,
    subscriber: {
      memberId: 'W987654321',
      groupNumber: 'GRP1001',
      name: { lastName: 'DOE', firstName: 'JOHN', middleName: 'Q' },
      demographics: null,
    },
    patient: {
      relationshipCode: '19',
      name: { lastName: 'DOE', firstName: 'TIMMY' },
      demographics: {
        birthDate: '2015-06-07',
        sex: 'M',
        address: { line1: '12 ELM ST', city: 'SPRINGFIELD', state: 'IL', postalCode: '62704' },
      },
    },
  },
};

const renderingProvider: Build837pInput = {
  ...clinic,
  interchangeControlNumber: 103,
  groupControlNumber: 103,
  transactionControlNumber: '0003',
  usageIndicator: 'P',
  createdAt: new Date('2025-03-05T09:05:00Z'),
  batchId: 'BATCH103',
  claim: {
    claimId: 'clm_2c3d4e5f60718293',
    totalChargeCents: 115000,
    placeOfService: '22',
    diagnoses: ['M17.11', 'M25.561', 'E11.9', 'I10', 'Z79.84'],
    lines: [
      {
        procedureCode: '20610',
        modifiers: ['RT', '59', 'XS', '76'],
        diagnosisPointers: [1, 2, 3, 4],
        units: 1,
        chargeCents: 90000,
        serviceDate: '2025-03-04',
      },
      {
        procedureCode: 'G0463',
        modifiers: [],
        diagnosisPointers: [5],
        units: 1,
        chargeCents: 25000,
        serviceDate: '2025-03-04',
      },
    ],
    billingProvider,
    renderingProvider: { npi: '1987654328', name: { lastName: 'JONES', firstName: 'DAVID' } },
    payer,
    subscriber: {
      memberId: 'W555000111',
      name: { lastName: 'ROE', firstName: 'RICHARD', middleName: 'A' },
      demographics: {
        birthDate: '1961-12-30',
        sex: 'M',
        address: { line1: '7 OAK AVE', line2: 'APT 3', city: 'SPRINGFIELD', state: 'IL', postalCode: '62702' },
      },
    },
    patient: null,
  },
};

// The second pass (DECISIONS "Claim lifecycle"): a replacement (CLM05-3 7) and a void (8) of the first claim, each
// naming the payer's claim control number in REF*F8, and a secondary claim to another payer carrying the primary's
// adjudication (2320 SBR/CAS/AMT*D/OI, 2330A, 2330B, and per line 2430 SVD/CAS/DTP*573).
const secondPass = (
  n: number,
  at: string,
): Pick<
  Build837pInput,
  'interchangeControlNumber' | 'groupControlNumber' | 'transactionControlNumber' | 'createdAt' | 'batchId'
> => ({
  interchangeControlNumber: n,
  groupControlNumber: n,
  transactionControlNumber: String(n - 100).padStart(4, '0'),
  createdAt: new Date(at),
  batchId: `BATCH${n}`,
});

const replacement: Build837pInput = {
  ...subscriberOneLine,
  ...secondPass(104, '2025-03-10T09:00:00Z'),
  claim: {
    ...subscriberOneLine.claim,
    claimId: 'clm_3d4e5f6071829304',
    frequency: '7',
    payerClaimNumber: 'PCN20250305001',
    totalChargeCents: 15000,
    lines: [{ ...subscriberOneLine.claim.lines[0]!, procedureCode: '99214', chargeCents: 15000 }],
  },
};

const voidClaim: Build837pInput = {
  ...subscriberOneLine,
  ...secondPass(105, '2025-03-10T09:00:00Z'),
  claim: {
    ...subscriberOneLine.claim,
    claimId: 'clm_4e5f607182930415',
    frequency: '8',
    payerClaimNumber: 'PCN20250305001',
  },
};

const secondary: Build837pInput = {
  ...subscriberOneLine,
  ...secondPass(106, '2025-03-20T09:00:00Z'),
  claim: {
    ...subscriberOneLine.claim,
    claimId: 'clm_5f60718293041526',
    payerResponsibility: 'S',
    payer: { id: '77777', name: 'SECOND PLAN' },
    subscriber: { ...subscriberOneLine.claim.subscriber, memberId: 'S123456789', groupNumber: 'SEC2002' },
    otherPayer: {
      responsibility: 'P',
      relationshipCode: '18',
      groupNumber: 'GRP1001',
      subscriber: { memberId: 'W123456789', name: { lastName: 'DOE', firstName: 'JANE' } },
      payer,
      paidCents: 7000,
      adjustments: [{ group: 'PR', reason: '1', amountCents: 1000 }],
      lines: [
        {
          procedureCode: '99213',
          modifiers: [],
          // Balanced as the TR3 balances it: SV102 125 = SVD02 80 + CAS 25 + 20, and CLM02 125 = AMT*D 70 + every
          // CAS (10 + 25 + 20).
          paidCents: 8000,
          units: 1,
          adjustments: [
            { group: 'CO', reason: '45', amountCents: 2500 },
            { group: 'PR', reason: '3', amountCents: 2000 },
          ],
          adjudicationDate: '2025-03-15',
        },
      ],
    },
  },
};

// A secondary whose primary's 835 gave no line detail (or none that matched the lines): no 2430; 2320 carries every
// adjustment and the remaining patient liability (AMT*EAF), 2330B the adjudication date (DTP*573). Each line reads
// as paid 0 without adjustments, the primary's date on it.
const noLineDetail = (line: ServiceLine) => ({
  procedureCode: line.procedureCode,
  modifiers: line.modifiers,
  paidCents: 0,
  units: line.units,
  adjustments: [],
  adjudicationDate: '2025-03-15',
});
const secondaryLines: ServiceLine[] = [
  subscriberOneLine.claim.lines[0]!,
  { ...subscriberOneLine.claim.lines[0]!, procedureCode: '87880', chargeCents: 3500 },
];
const secondaryClaimLevel: Build837pInput = {
  ...secondary,
  ...secondPass(107, '2025-03-20T09:00:00Z'),
  claim: {
    ...secondary.claim,
    claimId: 'clm_6071829304152637',
    totalChargeCents: 16000,
    lines: secondaryLines,
    otherPayer: {
      ...secondary.claim.otherPayer!,
      paidCents: 10800,
      adjustments: [
        { group: 'CO', reason: '45', amountCents: 3200 },
        { group: 'PR', reason: '3', amountCents: 2000 },
      ],
      lines: secondaryLines.map(noLineDetail),
    },
  },
};

const cases: [string, Build837pInput][] = [
  ['837p-replacement.x12', replacement],
  ['837p-void.x12', voidClaim],
  ['837p-secondary.x12', secondary],
  ['837p-secondary-claim-level.x12', secondaryClaimLevel],
  ['837p-subscriber-one-line.x12', subscriberOneLine],
  ['837p-dependent-several-lines.x12', dependentSeveralLines],
  ['837p-rendering-provider.x12', renderingProvider],
];

describe('build837p', () => {
  it.each(cases)('writes %s byte for byte', (file, input) => {
    expect(build837p(input)).toBe(golden(file));
  });

  it.each(cases)('reads %s back into the claim it was built from', (file, input) => {
    const expected = structuredClone(input);
    // The 837P carries ICD-10-CM codes without the dot (TR3 2300 HI note), so that is how they read back.
    expected.claim.diagnoses = expected.claim.diagnoses.map((code) => code.replace('.', ''));
    expect(read837p(golden(file))).toEqual(expected);
  });

  it('never writes a CLM01 over 20 characters for the ids the platform makes', () => {
    for (const [, input] of cases) expect(input.claim.claimId.length).toBeLessThanOrEqual(20);
  });

  it('refuses a replacement or void without REF*F8, an original with one, and a secondary without the primary', () => {
    const write = (claim: Partial<Build837pInput['claim']>) => () =>
      build837p({ ...subscriberOneLine, claim: { ...subscriberOneLine.claim, ...claim } });
    expect(write({ frequency: '7' })).toThrow(RangeError);
    expect(write({ payerClaimNumber: 'PCN1' })).toThrow(RangeError);
    expect(write({ payerResponsibility: 'S' })).toThrow(RangeError);
    expect(write({ frequency: '8', payerClaimNumber: 'PCN1' })).not.toThrow();
  });

  it('writes more than six reasons of one group as two CAS segments', () => {
    const reasons = ['1', '2', '3', '4', '5', '6', '7'].map((reason) => ({ group: 'PR', reason, amountCents: 100 }));
    const text = build837p({
      ...secondary,
      // Seven PR adjustments of $1.00 in place of the $10.00 one: the primary paid $3.00 more.
      claim: {
        ...secondary.claim,
        otherPayer: { ...secondary.claim.otherPayer!, adjustments: reasons, paidCents: 7300 },
      },
    });
    expect(text).toContain('CAS*PR*1*1**2*1**3*1**4*1**5*1**6*1~\nCAS*PR*7*1~');
    expect(read837p(text).claim.otherPayer!.adjustments).toEqual(reasons);
  });

  describe("the primary payer's adjudication on a secondary claim", () => {
    const withOtherPayer = (change: Partial<OtherPayer>, claim: Build837pInput = secondary) => ({
      ...claim,
      claim: { ...claim.claim, otherPayer: { ...claim.claim.otherPayer!, ...change } },
    });
    const primaryLine = secondary.claim.otherPayer!.lines[0]!;

    it('sends the remaining patient liability once: per line in 2430 with line detail, zero included', () => {
      const twoLines = withOtherPayer(
        {
          paidCents: 10800,
          adjustments: [],
          lines: [
            { ...primaryLine, paidCents: 8000 },
            {
              ...primaryLine,
              procedureCode: '87880',
              paidCents: 2800,
              adjustments: [{ group: 'CO', reason: '45', amountCents: 700 }],
            },
          ],
        },
        { ...secondaryClaimLevel, claim: { ...secondaryClaimLevel.claim, otherPayer: secondary.claim.otherPayer } },
      );
      const text = build837p(twoLines);
      expect(text).toContain('DTP*573*D8*20250315~\nAMT*EAF*20~\nLX*2~');
      expect(text).toContain('CAS*CO*45*7~\nDTP*573*D8*20250315~\nAMT*EAF*0~\nSE*');
      expect(text).toContain('AMT*D*108~\nOI*');
      expect(text).not.toContain('*PI*60054~\nDTP');
    });

    it('writes every 2430 or none: without line detail 2320 carries the CAS and AMT*EAF, 2330B the DTP*573', () => {
      const text = build837p(secondaryClaimLevel);
      expect(text).not.toContain('SVD*');
      expect(text.match(/DTP\*573/g)).toHaveLength(1);
      expect(text).toContain('AMT*D*108~\nAMT*EAF*20~\nOI***Y***Y~');
      expect(text).toContain('NM1*PR*2*DEMO HEALTH PLAN*****PI*60054~\nDTP*573*D8*20250315~\nLX*1~');
    });

    it('leaves out a zero adjustment and writes a negative one with its minus sign', () => {
      const text = build837p(
        withOtherPayer({
          paidCents: 7250,
          lines: [
            {
              ...primaryLine,
              paidCents: 8250,
              adjustments: [
                { group: 'CO', reason: '45', amountCents: 2500 },
                { group: 'CO', reason: '253', amountCents: 0 },
                { group: 'OA', reason: '94', amountCents: -250 },
                { group: 'PR', reason: '3', amountCents: 2000 },
              ],
            },
          ],
        }),
      );
      expect(text).toContain('SVD*60054*82.5*HC:99213**1~\nCAS*CO*45*25~\nCAS*OA*94*-2.5~\nCAS*PR*3*20~\n');
      expect(text).not.toContain('*253*');
      expect(read837p(text).claim.otherPayer!.lines[0]!.adjustments).toContainEqual({
        group: 'OA',
        reason: '94',
        amountCents: -250,
      });
      // A group whose only adjustment is zero writes no CAS at all.
      const zeroGroup = build837p(
        withOtherPayer({
          adjustments: [...secondary.claim.otherPayer!.adjustments, { group: 'OA', reason: '23', amountCents: 0 }],
        }),
      );
      expect(zeroGroup).not.toContain('CAS*OA');
    });

    it.each<[string, Build837pInput, string]>([
      [
        'a line whose paid amount and adjustments do not add up to its charge (SV102 = SVD02 + CAS)',
        withOtherPayer({ lines: [{ ...primaryLine, paidCents: 7000 }] }),
        "otherPayer.lines[0] does not balance: SV102 must equal SVD02 plus the line's CAS amounts",
      ],
      [
        'a claim whose AMT*D and CAS do not add up to CLM02',
        withOtherPayer({ paidCents: 8000 }),
        'otherPayer does not balance: CLM02 must equal AMT*D plus every CAS amount of 2320 and 2430',
      ],
      [
        'claim level adjudication that does not add up to CLM02',
        withOtherPayer({ paidCents: 10000 }, secondaryClaimLevel),
        'otherPayer does not balance: CLM02 must equal AMT*D plus every CAS amount of 2320 and 2430',
      ],
      [
        'line detail for one line and none for another',
        withOtherPayer(
          { lines: [primaryLine, noLineDetail(secondaryLines[1]!)], paidCents: 7000 },
          { ...secondaryClaimLevel, claim: { ...secondaryClaimLevel.claim, otherPayer: secondary.claim.otherPayer } },
        ),
        "otherPayer.lines[1] does not balance: SV102 must equal SVD02 plus the line's CAS amounts",
      ],
      [
        'a negative line payment',
        withOtherPayer({
          lines: [
            { ...primaryLine, paidCents: -100, adjustments: [{ group: 'CO', reason: '45', amountCents: 12600 }] },
          ],
        }),
        'otherPayer.lines[0].paidCents must be cents >= 0',
      ],
    ])('refuses %s', (_case, bad, message) => {
      expect(() => build837p(bad)).toThrow(new RangeError(message));
    });
  });

  it('reads nothing but its own shape: a segment out of place is an unreadable 837P', () => {
    const text = golden('837p-subscriber-one-line.x12').replace('NM1*40*2*', 'NM1*PR*2*');
    expect(() => read837p(text)).toThrow(new X12ReadError('unreadable', 'segment 5: expected NM1*40, found NM1'));
  });

  it("counts ST through SE in SE01 and carries the caller's control numbers in ISA13/IEA02, GS06/GE02 and ST02/SE02", () => {
    const text = build837p({
      ...dependentSeveralLines,
      interchangeControlNumber: 7,
      groupControlNumber: 8,
      transactionControlNumber: '12345',
    });
    const interchange = readInterchange(text);
    const group = interchange.groups[0]!;
    const transaction = group.transactions[0]!;
    const se = transaction.segments.at(-1)!;
    expect([interchange.controlNumber, group.controlNumber, transaction.controlNumber]).toEqual([
      '000000007',
      '8',
      '12345',
    ]);
    expect(se.raw).toBe(`SE*${transaction.segments.length}*12345`);
    expect(text.endsWith('GE*1*8~\nIEA*1*000000007~\n')).toBe(true);
    // The same claim and envelope always give the same bytes.
    expect(build837p(dependentSeveralLines)).toBe(build837p(structuredClone(dependentSeveralLines)));
  });

  it('leaves out the rendering provider when it is the billing provider', () => {
    const text = build837p({
      ...renderingProvider,
      claim: {
        ...renderingProvider.claim,
        renderingProvider: { npi: billingProvider.npi, name: { lastName: 'X', firstName: 'Y' } },
      },
    });
    expect(text).not.toContain('NM1*82');
    expect(read837p(text).claim.renderingProvider).toBeUndefined();
  });

  it('leaves out PER02 when the contact is the submitter itself', () => {
    const text = build837p({
      ...subscriberOneLine,
      submitter: { ...clinic.submitter, contactName: 'NORTHSIDE CLINIC' },
    });
    expect(text).toContain('\nPER*IC**TE*5555550100~\n');
    expect(read837p(text).submitter.contactName).toBe('NORTHSIDE CLINIC');
  });

  it('writes the contact as an email (PER03 EM) when there is no phone, and reads it back', () => {
    const { phone: _phone, ...noPhone } = clinic.submitter;
    const text = build837p({ ...subscriberOneLine, submitter: { ...noPhone, email: 'billing@northside.test' } });
    expect(text).toContain('\nPER*IC*BILLING OFFICE*EM*billing@northside.test~\n');
    expect(read837p(text).submitter).toMatchObject({ email: 'billing@northside.test' });
    expect(() => build837p({ ...subscriberOneLine, submitter: noPhone })).toThrow(RangeError);
  });

  const claim = subscriberOneLine.claim;
  const line = claim.lines[0]!;
  it.each<[string, Build837pInput, string]>([
    [
      'a name holding the element separator',
      { ...subscriberOneLine, claim: { ...claim, payer: { ...payer, name: 'A*B' } } },
      'value for NM1 holds a delimiter character',
    ],
    [
      'a modifier holding the component separator',
      { ...subscriberOneLine, claim: { ...claim, lines: [{ ...line, modifiers: ['2:'] }] } },
      'value for SV1 holds a delimiter character',
    ],
    ['no diagnosis', { ...subscriberOneLine, claim: { ...claim, diagnoses: [] } }, 'diagnoses must hold 1..12 codes'],
    [
      'no line',
      { ...subscriberOneLine, claim: { ...claim, lines: [], totalChargeCents: 0 } },
      'lines must hold 1..50 service lines',
    ],
    [
      'a pointer past the diagnoses',
      { ...subscriberOneLine, claim: { ...claim, lines: [{ ...line, diagnosisPointers: [2] }] } },
      'lines[0].diagnosisPointers must point at diagnoses',
    ],
    [
      'a total that is not the sum',
      { ...subscriberOneLine, claim: { ...claim, totalChargeCents: 12501 } },
      'totalChargeCents must equal the sum of the lines',
    ],
    [
      'fractional units',
      { ...subscriberOneLine, claim: { ...claim, lines: [{ ...line, units: 1.5 }] } },
      'lines[0].units must be a positive integer',
    ],
    [
      'a malformed service date',
      { ...subscriberOneLine, claim: { ...claim, lines: [{ ...line, serviceDate: '3/3/2025' }] } },
      'lines[0].serviceDate must be YYYY-MM-DD',
    ],
    [
      'a nine-digit NPI',
      { ...subscriberOneLine, claim: { ...claim, billingProvider: { ...billingProvider, npi: '123456789' } } },
      'billingProvider.npi must be 10 digits',
    ],
    [
      'a subscriber-patient without demographics',
      { ...subscriberOneLine, claim: { ...claim, subscriber: { ...claim.subscriber, demographics: null } } },
      'subscriber.demographics is required when the patient is the subscriber',
    ],
    [
      'PAT01 18 (self)',
      {
        ...dependentSeveralLines,
        claim: {
          ...dependentSeveralLines.claim,
          patient: { ...dependentSeveralLines.claim.patient!, relationshipCode: '18' },
        },
      },
      'patient.relationshipCode is not a 2000C PAT01 code',
    ],
    [
      'a ZIP+4 with a hyphen',
      {
        ...subscriberOneLine,
        claim: {
          ...claim,
          billingProvider: { ...billingProvider, address: { ...billingProvider.address, postalCode: '62701-0001' } },
        },
      },
      'billingProvider.address.postalCode must be 5 or 9 digits',
    ],
    [
      'a control number out of range',
      { ...subscriberOneLine, interchangeControlNumber: 0 },
      'interchangeControlNumber must be 1..999999999',
    ],
  ])('refuses %s', (_case, bad, message) => {
    expect(() => build837p(bad)).toThrow(new RangeError(message));
  });
});

describe('formatAmount', () => {
  it.each([
    [15000, '150'],
    [15050, '150.5'],
    [15025, '150.25'],
    [5, '0.05'],
    [0, '0'],
    [100_000_000_000, '1000000000'],
  ])('writes %i cents as %s', (cents, text) => {
    expect(formatAmount(cents)).toBe(text);
  });
});
