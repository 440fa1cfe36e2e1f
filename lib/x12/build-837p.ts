// Writes a 005010X222A1 837P for one professional claim, segment for segment as the TR3's own examples write
// them. It does not run the payer's edits (lib/claims/scrub does), send anything, or choose control numbers or the
// time: those come in as arguments, so the same claim always gives the same bytes.
import { buildInterchange, type ElementValue, type InterchangeEnvelope } from './build-interchange';
import { fitName, NAME_FIRST_MAX, NAME_LAST_OR_ORGANIZATION_MAX } from './fit-name';
import { formatAmount } from './format-amount';
import type {
  Demographics,
  OtherPayer,
  OtherPayerAdjustment,
  PersonName,
  PostalAddress,
  ProfessionalClaim,
} from './professional-claim';
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
 * a total that is not the sum of the lines, or another payer's adjudication that does not balance (assertOtherPayer).
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
    // 2000B subscriber: HL04 1 when a patient HL (2000C) follows. SBR01 P primary, S secondary (the destination
    // payer's rank); SBR02 18 only when the patient is the subscriber; SBR09 CI commercial insurance.
    ['HL', '2', '1', '22', patient ? '1' : '0'],
    [
      'SBR',
      claim.payerResponsibility ?? 'P',
      patient ? '' : '18',
      subscriber.groupNumber ?? '',
      '',
      '',
      '',
      '',
      '',
      'CI',
    ],
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
    // 2300: CLM05 place of service : B (place-of-service codes) : frequency (1 original, 7 replacement, 8 void);
    // CLM06 Y provider signature on file; CLM07 A assigned; CLM08 Y benefits assigned; CLM09 Y release signed.
    [
      'CLM',
      claim.claimId,
      formatAmount(claim.totalChargeCents),
      '',
      '',
      [claim.placeOfService, 'B', claim.frequency ?? '1'],
      'Y',
      'A',
      'Y',
      'Y',
    ],
  );
  // 2300 REF*F8 (payer claim control number), before HI as the TR3 orders 2300: the claim a 7 or 8 acts on.
  if (claim.payerClaimNumber) body.push(['REF', 'F8', claim.payerClaimNumber]);
  body.push(
    // HI: ABK principal diagnosis, then ABF other diagnoses, ICD-10-CM without the dot (TR3: the point is implied).
    ['HI', ...claim.diagnoses.map((code, i) => [i === 0 ? 'ABK' : 'ABF', code.replace('.', '').toUpperCase()])],
  );
  if (rendering) {
    // 2310B rendering provider, a person (NM102 1), when it is not the billing provider.
    body.push(['NM1', '82', '1', ...person(rendering.name), '', '', 'XX', rendering.npi]);
    if (rendering.taxonomyCode) body.push(['PRV', 'PE', 'PXC', rendering.taxonomyCode]);
  }
  const other = claim.otherPayer;
  const hasLineDetail = other !== undefined && hasLineAdjudication(other);
  if (other) body.push(...otherPayerLoops(other, hasLineDetail));
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
    if (other && hasLineDetail) body.push(...lineAdjudication(other, i));
  });
  return buildInterchange(
    input,
    { functionalId: 'HC', transactionSetId: '837', implementationReference: '005010X222A1' },
    body,
  );
}

/**
 * 2320 other subscriber information (SBR, CAS, AMT*D, AMT*EAF, OI), 2330A other subscriber (NM1*IL) and 2330B
 * other payer (NM1*PR, DTP*573). SBR09 CI; OI03 Y benefits assigned, OI06 Y release of information.
 * The other payer's adjudication goes at one level only. With line detail, each 2430 carries its own DTP*573 and
 * AMT*EAF, and 2320/2330B carry neither. Without it (the 835 had no line detail, or it could not be matched to the
 * claim's lines), no 2430 is sent: 2320 carries every adjustment and AMT*EAF, 2330B the DTP*573. The TR3 requires the
 * 2330B date only when no 2430 carries one, and X12 RFI 1517 puts the remaining patient liability in 2320 when the
 * other payer reported claim level information only, else in 2430; validators refuse either at both levels.
 */
function otherPayerLoops(other: OtherPayer, hasLineDetail: boolean): Segment[] {
  return [
    ['SBR', other.responsibility, other.relationshipCode, other.groupNumber ?? '', '', '', '', '', '', 'CI'],
    ...casSegments(other.adjustments),
    ['AMT', 'D', formatAmount(other.paidCents)],
    ...(hasLineDetail ? [] : [remainingPatientLiability(other.adjustments)]),
    ['OI', '', '', 'Y', '', '', 'Y'],
    ['NM1', 'IL', '1', ...person(other.subscriber.name), '', '', 'MI', other.subscriber.memberId],
    ['NM1', 'PR', '2', organization(other.payer.name), '', '', '', '', 'PI', other.payer.id],
    // The claim's adjudication date, which every line carries.
    ...(hasLineDetail ? [] : [['DTP', '573', 'D8', toD8(other.lines[0]!.adjudicationDate, 'adjudicationDate')]]),
  ];
}

/** 2430 for the claim's line i: SVD (payer id, paid, procedure, units paid), its CAS, DTP*573, AMT*EAF. */
function lineAdjudication(other: OtherPayer, i: number): Segment[] {
  const line = other.lines[i]!;
  return [
    [
      'SVD',
      other.payer.id,
      formatAmount(line.paidCents),
      ['HC', line.procedureCode, ...line.modifiers],
      '',
      String(line.units),
    ],
    ...casSegments(line.adjustments),
    ['DTP', '573', 'D8', toD8(line.adjudicationDate, `otherPayer.lines[${i}].adjudicationDate`)],
    remainingPatientLiability(line.adjustments),
  ];
}

/**
 * AMT*EAF: what the patient still owes after the other payer, its PR (patient responsibility) adjustments. Sent
 * whenever the other payer adjudicated, zero included (X12 RFI 1515). With line detail each line's own PR only: a
 * claim-level PR stays in the 2320 CAS, as EAF goes at one level. Never below zero: a patient cannot owe less than
 * nothing.
 */
function remainingPatientLiability(adjustments: readonly OtherPayerAdjustment[]): Segment {
  const owedCents = totalOf(adjustments.filter((a) => a.group === 'PR'));
  return ['AMT', 'EAF', formatAmount(Math.max(0, owedCents))];
}

/**
 * Whether the other payer's adjudication is written per line (2430). A line with nothing paid and no adjustment
 * says the payer gave no line detail: as a 2430 it could not balance a charge above zero. The builder writes 2430 for
 * every line or for none (assertOtherPayer refuses a mix, whose lines cannot all balance).
 */
function hasLineAdjudication(other: OtherPayer): boolean {
  return other.lines.some((line) => line.paidCents !== 0 || line.adjustments.some((a) => a.amountCents !== 0));
}

/**
 * CAS segments: one per group, in the order the groups first appear, up to six reason/amount pairs each. A zero
 * amount is left out (TR3 CAS note, X12 RFI 1865: the segment carries non-zero adjustments only); a negative one, which an 835
 * allows, is written with its minus sign as an X12 R value.
 */
function casSegments(adjustments: readonly OtherPayerAdjustment[]): Segment[] {
  const groups = new Map<string, OtherPayerAdjustment[]>();
  for (const adjustment of adjustments) {
    if (adjustment.amountCents === 0) continue;
    groups.set(adjustment.group, [...(groups.get(adjustment.group) ?? []), adjustment]);
  }
  const segments: Segment[] = [];
  for (const [group, list] of groups) {
    for (let at = 0; at < list.length; at += 6) {
      segments.push([
        'CAS',
        group,
        ...list.slice(at, at + 6).flatMap((a, k, chunk) => {
          // CAS04/07/..: the quantity, never sent; trailing empties are trimmed by the interchange writer.
          const pair = [a.reason, formatSignedAmount(a.amountCents)];
          return k < chunk.length - 1 ? [...pair, ''] : pair;
        }),
      ]);
    }
  }
  return segments;
}

function formatSignedAmount(amountCents: number): string {
  return amountCents < 0 ? `-${formatAmount(-amountCents)}` : formatAmount(amountCents);
}

function totalOf(adjustments: readonly OtherPayerAdjustment[]): number {
  return adjustments.reduce((sum, a) => sum + a.amountCents, 0);
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
  const frequency = claim.frequency ?? '1';
  require(['1', '7', '8'].includes(frequency), 'frequency must be 1, 7 or 8');
  // TR3 2300 REF*F8: required when CLM05-3 is 7 or 8, and only then.
  require((frequency === '1') ===
    !claim.payerClaimNumber, 'payerClaimNumber (REF*F8) is required for a replacement or void, and only then');
  require((claim.payerResponsibility === 'S') ===
    (claim.otherPayer !==
      undefined), 'a secondary claim (SBR01 S) carries the primary payer (otherPayer), and only it does');
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
  if (claim.otherPayer) assertOtherPayer(claim.otherPayer, claim);
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

/**
 * The other payer's adjudication as the TR3 balances it, in cents. Per line with 2430: SV102 = SVD02 + the line's
 * CAS. Per claim: CLM02 = AMT*D + every CAS of 2320 and 2430 (X12 RFI 1115); with the lines balanced, that is the
 * sum of SVD02 less the 2320 CAS equalling AMT*D.
 */
function assertOtherPayer(other: OtherPayer, claim: ProfessionalClaim): void {
  require(other.lines.length === claim.lines.length, 'otherPayer.lines must hold one entry per claim line');
  require(PATIENT_RELATIONSHIP_CODES.has(other.relationshipCode) ||
    other.relationshipCode === '18', 'otherPayer.relationshipCode is not an SBR02 code');
  require(Number.isSafeInteger(other.paidCents) && other.paidCents >= 0, 'otherPayer.paidCents must be cents >= 0');
  const adjustments = [...other.adjustments, ...other.lines.flatMap((line) => line.adjustments)];
  for (const a of adjustments) {
    require(['CO', 'PR', 'OA', 'PI', 'CR'].includes(a.group), 'an adjustment group must be CO, PR, OA, PI or CR');
    require(/^[0-9A-Z]{1,5}$/.test(a.reason), 'an adjustment reason must be a CARC');
    require(Number.isSafeInteger(a.amountCents), 'an adjustment amount must be integer cents');
  }
  if (hasLineAdjudication(other)) {
    other.lines.forEach((line, i) => {
      const isPaid = Number.isSafeInteger(line.paidCents) && line.paidCents >= 0;
      const isLineBalanced = line.paidCents + totalOf(line.adjustments) === claim.lines[i]!.chargeCents;
      require(isPaid, `otherPayer.lines[${i}].paidCents must be cents >= 0`);
      require(isLineBalanced, `otherPayer.lines[${i}] does not balance: SV102 must equal SVD02 plus the line's CAS amounts`);
    });
  }
  const isBalanced = other.paidCents + totalOf(adjustments) === claim.totalChargeCents;
  require(isBalanced, 'otherPayer does not balance: CLM02 must equal AMT*D plus every CAS amount of 2320 and 2430');
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
