import { describe, expect, it } from 'vitest';
import type { ProfessionalClaim } from '../../x12/professional-claim';
import { scrubClaim } from './scrub-claim';
import { SCRUB_EDITS, type ScrubInput } from './scrub-edits';

const address = { line1: '12 ELM ST', city: 'SPRINGFIELD', state: 'IL', postalCode: '62704' };

// A dependent patient's claim with a rendering provider that passes every edit.
const clean: ScrubInput = {
  today: '2025-03-10',
  hasMatchingActiveCheck: true,
  duplicateOf: null,
  claim: {
    claimId: 'clm_1b2c3d4e5f607182',
    totalChargeCents: 41075,
    placeOfService: '11',
    diagnoses: ['S93.401A', 'J069', 'R50.9'],
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
        procedureCode: 'G0463',
        modifiers: ['GP', '59'],
        diagnosisPointers: [1, 3],
        units: 2,
        chargeCents: 6025,
        serviceDate: '2025-03-04',
      },
    ],
    billingProvider: {
      npi: '1234567893',
      name: 'NORTHSIDE CLINIC',
      taxonomyCode: '207Q00000X',
      taxId: '123456789',
      address: { line1: '100 MAIN ST', city: 'SPRINGFIELD', state: 'IL', postalCode: '627010001' },
    },
    renderingProvider: {
      npi: '1245319599',
      name: { lastName: 'SMITH', firstName: 'ANNA' },
      taxonomyCode: '208000000X',
    },
    payer: { id: '60054', name: 'DEMO HEALTH PLAN' },
    subscriber: {
      memberId: 'W987654321',
      groupNumber: 'GRP1001',
      name: { lastName: 'DOE', firstName: 'JOHN' },
      demographics: null,
    },
    patient: {
      relationshipCode: '19',
      name: { lastName: 'DOE', firstName: 'TIMMY' },
      demographics: { birthDate: '2015-06-07', sex: 'M', address },
    },
  },
};

/** The clean input with the claim changed by `change` (on a copy). */
function withClaim(
  change: (claim: ProfessionalClaim) => void,
  facts: Partial<Omit<ScrubInput, 'claim'>> = {},
): ScrubInput {
  const input = { ...structuredClone(clean), ...facts };
  change(input.claim);
  return input;
}

/** The same claim as its own subscriber: the subscriber's demographics are required, the patient level goes. */
const asSubscriber = (claim: ProfessionalClaim) => {
  claim.subscriber.demographics = structuredClone(claim.patient!.demographics);
  claim.patient = null;
};

/** The same claim billed to a secondary payer: 2320/2330A/2330B name the primary coverage and its subscriber. */
const asSecondary = (claim: ProfessionalClaim) => {
  claim.payerResponsibility = 'S';
  claim.otherPayer = {
    responsibility: 'P',
    relationshipCode: '19',
    subscriber: { memberId: 'W123456789', name: { lastName: 'DOE', firstName: 'JANE' } },
    payer: { id: '87726', name: 'FIRST PLAN' },
    paidCents: 0,
    adjustments: [],
    lines: claim.lines.map((line) => ({
      procedureCode: line.procedureCode,
      modifiers: line.modifiers,
      paidCents: 0,
      units: line.units,
      adjustments: [],
      adjudicationDate: '2025-03-08',
    })),
  };
};

const messageOf = (edit: string) => SCRUB_EDITS.find((candidate) => candidate.id === edit)!.message;

// Each row: the edit, a claim that fails it and only it, and the paths it names.
const fires: [string, ScrubInput, string[]][] = [
  [
    'coverage-on-file',
    withClaim((c) => {
      c.payer = { id: '', name: '' };
      c.subscriber.memberId = ' ';
    }),
    ['payer.id', 'payer.name', 'subscriber.memberId'],
  ],
  ['eligibility-verified', withClaim(() => {}, { hasMatchingActiveCheck: false }), ['coverage']],
  ['duplicate-claim', withClaim(() => {}, { duplicateOf: 'clm_0a1b2c3d4e5f6071' }), ['lines']],
  [
    'patient-control-number',
    withClaim((c) => {
      c.claimId = 'clm_0a1b2c3d4e5f60718';
    }),
    ['claimId'],
  ],
  [
    'npi-check-digit',
    withClaim((c) => {
      c.billingProvider.npi = '1234567890';
      c.renderingProvider!.npi = '124531959';
    }),
    ['billingProvider.npi', 'renderingProvider.npi'],
  ],
  [
    'provider-details',
    withClaim((c) => {
      c.billingProvider.taxId = '12-3456789';
      c.billingProvider.address.postalCode = '62701';
      c.renderingProvider!.name.lastName = '';
    }),
    ['billingProvider.taxId', 'billingProvider.address.postalCode', 'renderingProvider.name.lastName'],
  ],
  [
    'provider-details',
    withClaim((c) => {
      c.billingProvider.name = '';
      c.billingProvider.taxonomyCode = '207Q0000';
      c.renderingProvider!.taxonomyCode = 'X';
    }),
    ['billingProvider.name', 'billingProvider.taxonomyCode', 'renderingProvider.taxonomyCode'],
  ],
  [
    'demographics-complete',
    withClaim((c) => {
      c.patient!.demographics.birthDate = '2015-02-30';
      c.patient!.demographics.sex = '';
      c.patient!.demographics.address.line1 = '';
    }),
    ['patient.demographics.birthDate', 'patient.demographics.sex', 'patient.demographics.address.line1'],
  ],
  [
    'demographics-complete',
    withClaim((c) => {
      c.patient!.name.firstName = '';
      c.subscriber.name.lastName = '';
      c.patient!.demographics.address.state = 'Illinois';
    }),
    ['subscriber.name.lastName', 'patient.name.firstName', 'patient.demographics.address.state'],
  ],
  [
    'demographics-complete',
    withClaim((c) => {
      asSubscriber(c);
      c.subscriber.demographics!.birthDate = '2025-03-11';
      c.subscriber.demographics!.address.postalCode = '6270';
    }),
    ['subscriber.demographics.birthDate', 'subscriber.demographics.address.postalCode'],
  ],
  [
    'demographics-complete',
    withClaim((c) => {
      asSubscriber(c);
      c.subscriber.demographics = null;
    }),
    ['subscriber.demographics'],
  ],
  [
    'demographics-complete',
    withClaim((c) => {
      asSecondary(c);
      // The primary coverage's card named no subscriber: 2330A NM103 would go out empty.
      c.otherPayer!.subscriber.name = { lastName: ' ', firstName: '' };
    }),
    ['otherPayer.subscriber.name.lastName', 'otherPayer.subscriber.name.firstName'],
  ],
  [
    'patient-relationship',
    withClaim((c) => {
      c.patient!.relationshipCode = '18';
    }),
    ['patient.relationshipCode'],
  ],
  [
    'diagnosis-count',
    withClaim((c) => {
      c.diagnoses = Array.from({ length: 13 }, () => 'J069');
    }),
    ['diagnoses'],
  ],
  [
    'diagnosis-code-shape',
    withClaim((c) => {
      c.diagnoses = ['S93.401A', '250.00', 'J0.69'];
    }),
    ['diagnoses.1', 'diagnoses.2'],
  ],
  [
    'line-count',
    withClaim((c) => {
      c.lines = [];
      c.totalChargeCents = 0;
    }),
    ['lines'],
  ],
  [
    'procedure-code-shape',
    withClaim((c) => {
      c.lines[0]!.procedureCode = '9921';
      c.lines[1]!.procedureCode = '0001X';
      c.lines[2]!.procedureCode = 'G04631';
    }),
    ['lines.0.procedureCode', 'lines.1.procedureCode', 'lines.2.procedureCode'],
  ],
  [
    'modifier-shape',
    withClaim((c) => {
      c.lines[0]!.modifiers = ['2'];
      c.lines[1]!.modifiers = ['RT', 'LT', '59', 'XS', '76'];
    }),
    ['lines.0.modifiers', 'lines.1.modifiers'],
  ],
  [
    'diagnosis-pointers',
    withClaim((c) => {
      c.lines[0]!.diagnosisPointers = [4];
      c.lines[1]!.diagnosisPointers = [1, 2, 3, 1, 2];
      c.lines[2]!.diagnosisPointers = [0];
    }),
    ['lines.0.diagnosisPointers', 'lines.1.diagnosisPointers', 'lines.2.diagnosisPointers'],
  ],
  [
    'units-positive',
    withClaim((c) => {
      c.lines[0]!.units = 0;
      c.lines[1]!.units = 1.5;
    }),
    ['lines.0.units', 'lines.1.units'],
  ],
  [
    'charge-positive',
    withClaim((c) => {
      c.lines[0]!.chargeCents = -100;
      c.lines[1]!.chargeCents = 150.5;
      c.totalChargeCents = -100 + 150.5 + 6025;
    }),
    ['lines.0.chargeCents', 'lines.1.chargeCents'],
  ],
  [
    'amount-limit',
    withClaim((c) => {
      // At the cap passes; one cent past it fails, on the line and on the total.
      c.lines[0]!.chargeCents = 99_999_999;
      c.lines[1]!.chargeCents = 100_000_000;
      c.lines[2]!.chargeCents = 1;
      c.totalChargeCents = 200_000_000;
    }),
    ['lines.1.chargeCents', 'totalChargeCents'],
  ],
  [
    'total-equals-lines',
    withClaim((c) => {
      c.totalChargeCents = 41074;
    }),
    ['totalChargeCents'],
  ],
  [
    'service-date',
    withClaim((c) => {
      c.lines[0]!.serviceDate = '2025-03-11';
      c.lines[1]!.serviceDate = '2025-13-01';
    }),
    ['lines.0.serviceDate', 'lines.1.serviceDate'],
  ],
  ['timely-filing', withClaim(() => {}, { today: '2026-03-04' }), ['lines.0.serviceDate', 'lines.1.serviceDate']],
  [
    'timely-filing',
    withClaim(() => {}, { filingLimitDays: 90, today: '2025-06-03' }),
    ['lines.0.serviceDate', 'lines.1.serviceDate', 'lines.2.serviceDate'],
  ],
  [
    'place-of-service',
    withClaim((c) => {
      c.placeOfService = '30';
    }),
    ['placeOfService'],
  ],
  [
    'x12-characters',
    withClaim((c) => {
      c.patient!.demographics.address.line1 = 'SUITE: 3';
      c.payer.name = 'A*B';
      c.subscriber.name.firstName = 'JO~';
    }),
    ['payer.name', 'subscriber.name.firstName', 'patient.demographics.address.line1'],
  ],
];

// Each row: a claim on an edit's boundary that passes every edit.
const passes: [string, ScrubInput][] = [
  ['the clean claim', clean],
  ['a patient who is the subscriber', withClaim(asSubscriber)],
  [
    'no rendering provider, group number or taxonomy',
    withClaim((c) => {
      delete c.renderingProvider;
      delete c.subscriber.groupNumber;
    }),
  ],
  [
    'a rendering provider without a taxonomy code',
    withClaim((c) => {
      delete c.renderingProvider!.taxonomyCode;
    }),
  ],
  [
    'a date of service today',
    withClaim((c) => {
      c.lines[0]!.serviceDate = '2025-03-10';
    }),
  ],
  ['a date of service exactly 365 days ago', withClaim(() => {}, { today: '2026-03-03' })],
  [
    'a date of service exactly 90 days before, with a 90-day limit',
    withClaim(() => {}, { filingLimitDays: 90, today: '2025-06-01' }),
  ],
  ['a longer filing limit', withClaim(() => {}, { today: '2026-03-04', filingLimitDays: 730 })],
  [
    'CPT Category II, III and PLA codes and HCPCS',
    withClaim((c) => {
      c.lines[0]!.procedureCode = '3074F';
      c.lines[1]!.procedureCode = '0042T';
      c.lines[2]!.procedureCode = '0001U';
    }),
  ],
  [
    'ICD-10-CM codes with and without the dot, three to seven characters',
    withClaim((c) => {
      c.diagnoses = ['I10', 'E11.9', 'M1A0110', 'z79.84'];
    }),
  ],
  [
    '12 diagnoses and pointers to the 12th',
    withClaim((c) => {
      c.diagnoses = Array.from({ length: 12 }, () => 'J069');
      c.lines[0]!.diagnosisPointers = [12, 11, 10, 9];
    }),
  ],
  [
    'four modifiers',
    withClaim((c) => {
      c.lines[0]!.modifiers = ['25', '59', 'XS', '76'];
    }),
  ],
  [
    'the newest place-of-service code',
    withClaim((c) => {
      c.placeOfService = '66';
    }),
  ],
  ["a secondary claim naming the primary coverage's subscriber", withClaim(asSecondary)],
  [
    'sex U, a ZIP+4 and an apostrophe',
    withClaim((c) => {
      c.patient!.demographics.sex = 'U';
      c.patient!.demographics.address.postalCode = '627040001';
      c.patient!.name.lastName = "O'BRIEN";
    }),
  ],
];

describe('scrubClaim', () => {
  it.each(fires)('%s fires', (edit, input, paths) => {
    expect(scrubClaim(input)).toEqual(paths.map((path) => ({ path, message: messageOf(edit), edit })));
  });

  it.each(passes)('passes %s', (_case, input) => {
    expect(scrubClaim(input)).toEqual([]);
  });

  it('has a firing case for every edit, and ids that are unique', () => {
    const ids = SCRUB_EDITS.map((edit) => edit.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(fires.map(([edit]) => edit))).toEqual(new Set(ids));
  });

  it('reports every failing edit at once, in the order of the edit list', () => {
    const input = withClaim(
      (c) => {
        c.placeOfService = '00';
        c.billingProvider.npi = '1234567890';
      },
      { hasMatchingActiveCheck: false },
    );
    expect(scrubClaim(input).map((issue) => issue.edit)).toEqual([
      'eligibility-verified',
      'npi-check-digit',
      'place-of-service',
    ]);
  });

  it('fails a claim without diagnoses on the count and on every pointer, which then points at nothing', () => {
    const input = withClaim((c) => {
      c.diagnoses = [];
    });
    expect(scrubClaim(input).map(({ edit, path }) => [edit, path])).toEqual([
      ['diagnosis-count', 'diagnoses'],
      ['diagnosis-pointers', 'lines.0.diagnosisPointers'],
      ['diagnosis-pointers', 'lines.1.diagnosisPointers'],
      ['diagnosis-pointers', 'lines.2.diagnosisPointers'],
    ]);
  });

  it('refuses a today that is not a date rather than guessing', () => {
    expect(() => scrubClaim({ ...clean, today: '03/10/2025' })).toThrow(
      new RangeError('today must be a YYYY-MM-DD date'),
    );
  });
});
