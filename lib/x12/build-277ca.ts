// Writes a 005010X214 277CA health care claim acknowledgment: what a clearinghouse or payer answers to an 837
// after its front-end edits, one status per claim. Levels as the TR3's examples write them: 20 information
// source (2100A, 2200A TRN and dates), 21 information receiver (2100B, 2200B TRN*2 of the 837's batch with its
// summary STC, QTY and AMT), 19 billing provider (2100C), PT patient (2100D) with the claim's 2200D TRN*2, STC,
// REF*1K and DTP*472. It writes what it is given and decides no status (the sandbox clearinghouse does).
import { buildInterchange, type ElementValue, type InterchangeEnvelope } from './build-interchange';
import { fitName } from './fit-name';
import { formatAmount } from './format-amount';
import { organizationNm1, personNm1 } from './nm1';
import { ccyymmdd, dateOrPeriod, hhmm } from './stamp';
import { toD8 } from './to-d8';

/** STC01: category (A1, A2, A3...), status code, and the entity the status is about (e.g. 85 billing provider). */
export type ClaimStatusInput = { category: string; code: string; entity?: string };

export type Claim277caInput = {
  /** 2200D TRN02: the patient control number, our claim id from CLM01. */
  claimId: string;
  /** 2100D NM1*QC: the patient (the subscriber when there is no 2000C), with the member id (NM109 MI). */
  patient: { lastName: string; firstName: string; middleName?: string; memberId: string };
  /** STC01. */
  status: ClaimStatusInput;
  /** STC02 (D8), YYYY-MM-DD: when the status took effect. */
  statusDate: string;
  /** STC04: the claim's total charge (CLM02), integer cents. */
  chargeCents: number;
  /** STC12: a free-form message (e.g. the reason of a rejection), when there is one. */
  message?: string;
  /** REF*1K: the payer's claim control number, when the claim was accepted and assigned one. */
  payerClaimId?: string;
  /** DTP*472: service dates, YYYY-MM-DD; `to` equal to `from` (or absent) writes a D8, else an RD8. */
  serviceDates: { from: string; to?: string };
};

export type Build277caInput = InterchangeEnvelope & {
  /** BHT03 and the 2200A TRN02: our reference for this acknowledgment, 1..30 characters. */
  referenceId: string;
  /**
   * 2100A: who acknowledges. `entity` PR (payer, id qualifier PI: its payer id, the default) or AY (clearinghouse,
   * qualifier 46: its electronic transmitter id).
   */
  informationSource: { entity?: 'PR' | 'AY'; id: string; name: string };
  /** 2100B NM1*41 (46): who submitted the 837 (1000A of the 837). */
  informationReceiver: { id: string; name: string };
  /** 2200B TRN02: the claim transaction batch number, the 837's BHT03. */
  batchId: string;
  /** 2200A DTP*050 received date and DTP*009 process date, YYYY-MM-DD. */
  receivedDate: string;
  processedDate: string;
  /** 2100C NM1*85 with the XX NPI. */
  billingProvider: { npi: string; name: string };
  /** 2000D, one per claim, one status each. At least one. */
  claims: Claim277caInput[];
};

/** The categories the 277CA TR3 uses for an accepted claim (A1 acknowledgment/receipt, A2 accepted). */
export const ACCEPTED_277CA_CATEGORIES: ReadonlySet<string> = new Set(['A1', 'A2']);

const REFERENCE_ID_MAX = 30; // BHT03 in the 277CA
const TRACE_MAX = 50; // TRN02
const MESSAGE_MAX = 264; // STC12

/**
 * Writes the 2200B summary from the claims' categories: accepted when A1/A2 (STC03 WQ), rejected otherwise (U);
 * its STC is A1:19 (the entity acknowledges receipt), WQ when any claim was accepted, U when none was. Throws
 * RangeError for a value holding a delimiter, a bad date or NPI, no claims, or a charge that is not non-negative
 * integer cents.
 */
export function build277ca(input: Build277caInput): string {
  const { informationSource: source, informationReceiver: receiver, billingProvider: provider, claims } = input;
  if (claims.length === 0) throw new RangeError('claims must hold at least one claim');
  if (input.referenceId.length < 1 || input.referenceId.length > REFERENCE_ID_MAX)
    throw new RangeError('referenceId must be 1..30 characters');
  if (input.batchId.length < 1 || input.batchId.length > TRACE_MAX)
    throw new RangeError('batchId must be 1..50 characters');
  if (!/^\d{10}$/.test(provider.npi)) throw new RangeError('billingProvider.npi must be 10 digits');
  const sourceEntity = source.entity ?? 'PR';
  const statusDate = ccyymmdd(input.createdAt);

  let acceptedCount = 0;
  let acceptedCents = 0;
  let rejectedCents = 0;
  const claimSegments: ElementValue[][] = [];
  claims.forEach((claim, i) => {
    const field = `claims[${i}]`;
    if (claim.claimId.length < 1 || claim.claimId.length > TRACE_MAX)
      throw new RangeError(`${field}.claimId must be 1..50 characters`);
    const charge = formatAmount(claim.chargeCents);
    const isAccepted = ACCEPTED_277CA_CATEGORIES.has(claim.status.category);
    if (isAccepted) {
      acceptedCount++;
      acceptedCents += claim.chargeCents;
    } else {
      rejectedCents += claim.chargeCents;
    }
    const { patient } = claim;
    claimSegments.push(
      // 2000D: HL03 PT, no HL04 (the TR3's examples send none: a patient level has no children).
      ['HL', String(4 + i), '3', 'PT'],
      personNm1('QC', patient, 'MI', patient.memberId),
      ['TRN', '2', claim.claimId],
      // STC03 action: WQ accepted, U rejected; STC05..STC11 are not used in 2200D, STC12 is the message.
      [
        'STC',
        [claim.status.category, claim.status.code, claim.status.entity ?? ''],
        toD8(claim.statusDate, `${field}.statusDate`),
        isAccepted ? 'WQ' : 'U',
        charge,
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        fitName(claim.message ?? '', MESSAGE_MAX),
      ],
    );
    if (claim.payerClaimId) claimSegments.push(['REF', '1K', claim.payerClaimId]);
    claimSegments.push(['DTP', '472', ...dateOrPeriod(claim.serviceDates, `${field}.serviceDates`)]);
  });
  const rejectedCount = claims.length - acceptedCount;

  const body: ElementValue[][] = [
    // BHT01 0085 information source, receiver, provider, patient; BHT02 08 status; BHT06 TH receipt acknowledgment.
    ['BHT', '0085', '08', input.referenceId, statusDate, hhmm(input.createdAt), 'TH'],
    ['HL', '1', '', '20', '1'],
    organizationNm1(sourceEntity, source.name, sourceEntity === 'AY' ? '46' : 'PI', source.id),
    ['TRN', '1', input.referenceId],
    ['DTP', '050', 'D8', toD8(input.receivedDate, 'receivedDate')],
    ['DTP', '009', 'D8', toD8(input.processedDate, 'processedDate')],
    ['HL', '2', '1', '21', '1'],
    organizationNm1('41', receiver.name, '46', receiver.id),
    ['TRN', '2', input.batchId],
    [
      'STC',
      ['A1', '19', sourceEntity],
      statusDate,
      acceptedCount > 0 ? 'WQ' : 'U',
      formatAmount(acceptedCents + rejectedCents),
    ],
  ];
  // QTY*90/AA and AMT*YU/YY: sent when not zero, as the TR3's examples do.
  if (acceptedCount > 0) body.push(['QTY', '90', String(acceptedCount)]);
  if (rejectedCount > 0) body.push(['QTY', 'AA', String(rejectedCount)]);
  if (acceptedCount > 0) body.push(['AMT', 'YU', formatAmount(acceptedCents)]);
  if (rejectedCount > 0) body.push(['AMT', 'YY', formatAmount(rejectedCents)]);
  body.push(['HL', '3', '2', '19', '1'], organizationNm1('85', provider.name, 'XX', provider.npi), ...claimSegments);
  return buildInterchange(
    input,
    { functionalId: 'HN', transactionSetId: '277', implementationReference: '005010X214' },
    body,
  );
}
