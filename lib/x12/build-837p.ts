// Writes a 005010X222A1 837P for one professional claim, segment for segment as the TR3's own examples write
// them. It does not run the payer's edits (lib/claims/scrub does), send anything, or choose control numbers or the
// time: those come in as arguments, so the same claim always gives the same bytes.
import { buildInterchange, type ElementValue, type InterchangeEnvelope } from './build-interchange';
import { fitName, NAME_FIRST_MAX, NAME_LAST_OR_ORGANIZATION_MAX } from './fit-name';
import { formatAmount } from './format-amount';
import type { Demographics, PersonName, PostalAddress, ProfessionalClaim } from './professional-claim';
import { toD8 } from './to-d8';

export type Build837pInput = InterchangeEnvelope & {
  /** BHT03, 1 to 50 characters: our id for this batch. */
  batchId: string;
  /** 1000A: who sends the claim, with the EDI contact. `id` (NM109) is the number the receiver assigned us. */
  /**
   * 1000A: who sends the claim, with the EDI contact (PER03/04): a phone (10 digits, area code first) when the
   * operator set one, else an email address; `phone` wins when both are given.
   */
  submitter: { id: string; name: string; contactName: string; phone?: string; email?: string };
  /** 1000B: the clearinghouse (or payer) that receives the batch. */
  receiver: { id: string; name: string };
  claim: ProfessionalClaim;
};

type Segment = ElementValue[];

// X12 element maximums (005010 data dictionary): NM105 middle name 25, N301/N302 55, N401 city 30.
const MIDDLE_NAME_MAX = 25;
const ADDRESS_LINE_MAX = 55;
const CITY_MAX = 30;
const CLAIM_ID_MAX = 38; // CLM01
const BATCH_ID_MAX = 50; // BHT03

// PAT01 codes the TR3 allows in loop 2000C: spouse, child, employee, unknown, organ donor, cadaver donor, life
// partner, other relationship. 18 (self) is never one: a patient who is the subscriber has no 2000C.
export const PATIENT_RELATIONSHIP_CODES: ReadonlySet<string> = new Set([
  '01',
  '19',
  '20',
  '21',
  '39',
  '40',
  '53',
  'G8',
]);

/**
 * Names longer than their NM1 element are cut (NM103 60, NM104 35, NM105 25), as are address lines (55) and
 * cities (30). Throws RangeError when a value would make the 837P malformed: a value holding a delimiter, a bad
 * date, NPI, tax id, ZIP code, state, sex or relationship code, counts outside the TR3's (1-12 diagnoses, 1-50
 * lines, up to 4 modifiers, 1-4 pointers each at a diagnosis), units or charges that are not positive integers,
 * or a total that is not the sum of the lines.
 */
export function build837p(input: Build837pInput): string {
  const { claim, submitter, receiver } = input;
  assertWritable(input);
  const at = input.createdAt;
  const bhtDate = `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}`;
  const bhtTime = `${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}`;
  const { billingProvider: billing, subscriber, patient } = claim;
  const rendering = claim.renderingProvider?.npi === billing.npi ? undefined : claim.renderingProvider;

  const body: Segment[] = [
    // BHT01 0019 information source, subscriber, dependent; BHT02 00 original; BHT06 CH chargeable.
    ['BHT', '0019', '00', input.batchId, bhtDate, bhtTime, 'CH'],
    // 1000A submitter (46: electronic transmitter id). PER02 only when it differs from the NM1 name (TR3).
    ['NM1', '41', '2', organization(submitter.name), '', '', '', '', '46', submitter.id],
    [
      'PER',
      'IC',
      submitter.contactName === submitter.name ? '' : submitter.contactName,
      ...submitterContact(submitter),
    ],
    // 1000B receiver.
    ['NM1', '40', '2', organization(receiver.name), '', '', '', '', '46', receiver.id],
    // 2000A billing provider: HL03 20, HL04 1 (the subscriber HL follows).
    ['HL', '1', '', '20', '1'],
    ['PRV', 'BI', 'PXC', billing.taxonomyCode],
    // 2010AA: an organisation (NM102 2) with its NPI, street address and tax id (EI: employer id number).
    ['NM1', '85', '2', organization(billing.name), '', '', '', '', 'XX', billing.npi],
    ...address(billing.address),
    ['REF', 'EI', billing.taxId],
    // 2000B subscriber: HL04 1 when a patient HL (2000C) follows. SBR01 P primary; SBR02 18 only when the
    // patient is the subscriber; SBR09 CI commercial insurance.
    ['HL', '2', '1', '22', patient ? '1' : '0'],
    ['SBR', 'P', patient ? '' : '18', subscriber.groupNumber ?? '', '', '', '', '', '', 'CI'],
    // 2010BA: address and DMG only when the patient is the subscriber ("if not required, do not send").
    ['NM1', 'IL', '1', ...person(subscriber.name), '', '', 'MI', subscriber.memberId],
    ...(patient ? [] : demographics(subscriber.demographics!)),
    // 2010BB destination payer (PI: payer id).
    ['NM1', 'PR', '2', organization(claim.payer.name), '', '', '', '', 'PI', claim.payer.id],
  ];
  if (patient) {
    // 2000C/2010CA patient: HL03 23, no child HL; the claim then belongs to this level.
    body.push(
      ['HL', '3', '2', '23', '0'],
      ['PAT', patient.relationshipCode],
      ['NM1', 'QC', '1', ...person(patient.name)],
    );
    body.push(...demographics(patient.demographics));
  }
  body.push(
    // 2300: CLM05 place of service : B (place-of-service codes) : 1 (original claim); CLM06 Y provider signature
    // on file; CLM07 A assigned; CLM08 Y benefits assigned; CLM09 Y release of information signed.
    [
      'CLM',
      claim.claimId,
      formatAmount(claim.totalChargeCents),
      '',
      '',
      [claim.placeOfService, 'B', '1'],
      'Y',
      'A',
      'Y',
      'Y',
    ],
    // HI: ABK principal diagnosis, then ABF other diagnoses, ICD-10-CM without the dot (TR3: the point is implied).
    ['HI', ...claim.diagnoses.map((code, i) => [i === 0 ? 'ABK' : 'ABF', code.replace('.', '').toUpperCase()])],
  );
  if (rendering) {
    // 2310B rendering provider, a person (NM102 1), when it is not the billing provider.
    body.push(['NM1', '82', '1', ...person(rendering.name), '', '', 'XX', rendering.npi]);
    if (rendering.taxonomyCode) body.push(['PRV', 'PE', 'PXC', rendering.taxonomyCode]);
  }
  claim.lines.forEach((line, i) => {
    body.push(
      ['LX', String(i + 1)],
      // SV101 HC (CPT/HCPCS) : code : modifiers; SV103 UN units; SV107 diagnosis pointers into HI.
      [
        'SV1',
        ['HC', line.procedureCode, ...line.modifiers],
        formatAmount(line.chargeCents),
        'UN',
        String(line.units),
        '',
        '',
        line.diagnosisPointers.map(String),
      ],
      ['DTP', '472', 'D8', toD8(line.serviceDate, `lines[${i}].serviceDate`)],
    );
  });
  return buildInterchange(
    input,
    { functionalId: 'HC', transactionSetId: '837', implementationReference: '005010X222A1' },
    body,
  );
}

function organization(name: string): string {
  return fitName(name, NAME_LAST_OR_ORGANIZATION_MAX);
}

/** NM103, NM104, NM105. */
function person(name: PersonName): string[] {
  return [
    fitName(name.lastName, NAME_LAST_OR_ORGANIZATION_MAX),
    fitName(name.firstName, NAME_FIRST_MAX),
    fitName(name.middleName ?? '', MIDDLE_NAME_MAX),
  ];
}

function address(value: PostalAddress): Segment[] {
  return [
    ['N3', fitName(value.line1, ADDRESS_LINE_MAX), fitName(value.line2 ?? '', ADDRESS_LINE_MAX)],
    ['N4', fitName(value.city, CITY_MAX), value.state, value.postalCode],
  ];
}

function demographics(value: Demographics): Segment[] {
  return [...address(value.address), ['DMG', 'D8', toD8(value.birthDate, 'birthDate'), value.sex]];
}

function assertWritable({ batchId, submitter, claim }: Build837pInput): void {
  const { lines, diagnoses } = claim;
  require(batchId.length >= 1 && batchId.length <= BATCH_ID_MAX, 'batchId must be 1..50 characters');
  if (submitter.phone !== undefined) require(/^\d{10}$/.test(submitter.phone), 'submitter.phone must be 10 digits');
  else require(/^[^\s@]{1,64}@[^\s@]{1,190}$/.test(submitter.email ?? ''), 'submitter needs a phone or an email');
  require(claim.claimId.length >= 1 && claim.claimId.length <= CLAIM_ID_MAX, 'claimId must be 1..38 characters');
  require(/^\d{2}$/.test(claim.placeOfService), 'placeOfService must be 2 digits');
  require(diagnoses.length >= 1 && diagnoses.length <= 12, 'diagnoses must hold 1..12 codes');
  require(lines.length >= 1 && lines.length <= 50, 'lines must hold 1..50 service lines');
  let sumCents = 0;
  lines.forEach((line, i) => {
    // Messages built only on failure: this runs for every line of every claim.
    const pointers = line.diagnosisPointers;
    if (line.modifiers.length > 4) throw new RangeError(`lines[${i}].modifiers must hold at most 4 modifiers`);
    if (pointers.length < 1 || pointers.length > 4)
      throw new RangeError(`lines[${i}].diagnosisPointers must hold 1..4 pointers`);
    if (!pointers.every((p) => Number.isInteger(p) && p >= 1 && p <= diagnoses.length))
      throw new RangeError(`lines[${i}].diagnosisPointers must point at diagnoses`);
    if (!isPositiveInteger(line.units)) throw new RangeError(`lines[${i}].units must be a positive integer`);
    if (!isPositiveInteger(line.chargeCents))
      throw new RangeError(`lines[${i}].chargeCents must be positive integer cents`);
    sumCents += line.chargeCents;
  });
  require(claim.totalChargeCents === sumCents, 'totalChargeCents must equal the sum of the lines');
  const { billingProvider: billing, renderingProvider: rendering, subscriber, patient } = claim;
  require(/^\d{10}$/.test(billing.npi), 'billingProvider.npi must be 10 digits');
  require(rendering === undefined || /^\d{10}$/.test(rendering.npi), 'renderingProvider.npi must be 10 digits');
  require(/^\d{9}$/.test(billing.taxId), 'billingProvider.taxId must be 9 digits');
  assertAddress(billing.address, 'billingProvider.address');
  if (patient) {
    require(PATIENT_RELATIONSHIP_CODES.has(
      patient.relationshipCode,
    ), 'patient.relationshipCode is not a 2000C PAT01 code');
    assertDemographics(patient.demographics, 'patient.demographics');
  } else {
    require(subscriber.demographics !== null, 'subscriber.demographics is required when the patient is the subscriber');
    assertDemographics(subscriber.demographics!, 'subscriber.demographics');
  }
}

function require(condition: boolean, message: string): void {
  if (!condition) throw new RangeError(message);
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function isPositiveInteger(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}

function assertDemographics(value: Demographics, field: string): void {
  if (!['F', 'M', 'U'].includes(value.sex)) throw new RangeError(`${field}.sex must be F, M or U`);
  assertAddress(value.address, `${field}.address`);
}

function assertAddress(value: PostalAddress, field: string): void {
  if (!/^[A-Z]{2}$/.test(value.state)) throw new RangeError(`${field}.state must be a two-letter code`);
  if (!/^\d{5}(\d{4})?$/.test(value.postalCode)) throw new RangeError(`${field}.postalCode must be 5 or 9 digits`);
}

/** PER03/PER04 of 1000A: TE with the phone, else EM with the email (the TR3 requires one communication number). */
function submitterContact(submitter: Build837pInput['submitter']): [string, string] {
  if (submitter.phone) return ['TE', submitter.phone];
  if (submitter.email) return ['EM', submitter.email];
  throw new RangeError('submitter needs a phone or an email for the EDI contact');
}
