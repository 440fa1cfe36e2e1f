// Writes a 005010X221A1 835 health care claim payment/advice, as the TR3's examples write it: BPR (payment), TRN*1
// (trace), N1*PR payer and N1*PE payee, LX, then per claim CLP, CAS, NM1*QC (DTM*232/233 only when a line has no
// date), and per line SVC, DTM*472, CAS; PLB last. BPR02 is computed from the claims and PLBs, and every balancing rule is checked before a byte is
// written, so what this writes read835 reads back to the same numbers. Production never builds an 835 (payers
// do); the sandbox clearinghouse's remittances and the tests do.
import { MAX_AMOUNT_CENTS } from '../money/cents';
import { buildInterchange, type ElementValue, type InterchangeEnvelope } from './build-interchange';
import { formatAmount } from './format-amount';
import { fitName, NAME_LAST_OR_ORGANIZATION_MAX } from './fit-name';
import { personNm1 } from './nm1';
import type { PostalAddress } from './professional-claim';
import { toD8 } from './to-d8';

/** One CAS reason/amount pair; group CO, PR, OA, PI or CR. Positive amounts reduce the payment. */
export type Adjustment835 = { group: string; reason: string; amountCents: number };

export type Line835 = {
  procedureCode: string;
  modifiers?: string[];
  /** SVC02. */
  chargeCents: number;
  /** SVC03. */
  paidCents: number;
  /** SVC05, a positive integer. */
  units: number;
  /** DTM*472, YYYY-MM-DD. */
  serviceDate?: string;
  adjustments: Adjustment835[];
};

export type Claim835 = {
  /** CLP01: our claim id (CLM01). */
  claimId: string;
  /** CLP02: 1 processed as primary, 4 denied, 22 reversal... */
  statusCode: string;
  /** CLP03, CLP04, CLP05 (integer cents, negative for a reversal). */
  chargeCents: number;
  paidCents: number;
  patientResponsibilityCents: number;
  /** CLP07. */
  payerClaimId: string;
  /** CLP06 claim filing indicator; defaults to 12 (PPO). */
  filingIndicator?: string;
  /** CLP08: the place of service the claim was billed with (CLM05-1), sent when given. */
  facilityCode?: string;
  /** NM1*QC with MI. */
  patient: { lastName: string; firstName: string; memberId: string };
  /**
   * DTM*232 claim statement period start, YYYY-MM-DD: written only when the claim has no lines or a line has no
   * serviceDate (then it is required). A professional claim's dates travel on its lines (2110 DTM*472), and the TR3
   * says not to send a situational segment it does not require.
   */
  statementFrom?: string;
  /** DTM*233, when the period has an end other than its start. */
  statementTo?: string;
  /** Claim-level CAS (loop 2100). */
  adjustments: Adjustment835[];
  lines: Line835[];
};

export type Build835Input = InterchangeEnvelope & {
  /** BPR04: CHK check, ACH, NON (no payment). ACH writes no bank details: the sandbox moves no money. */
  paymentMethod: 'CHK' | 'ACH' | 'NON';
  /** BPR16, YYYY-MM-DD. */
  paymentDate: string;
  /** TRN02: the check or EFT trace number; (payer id, TRN02) is what posting is idempotent on. */
  traceNumber: string;
  /**
   * 1000A: N1*PR with XV and the payer id (what read835 reports as payerId), N3/N4 its address, PER*BL its
   * technical contact (required by the TR3). TRN03 is "1" + `taxId` (9 digits, its EIN): TRN03 is 10 characters.
   */
  payer: {
    id: string;
    name: string;
    taxId: string;
    address: PostalAddress;
    technicalContact: { name?: string; /** 10 digits */ phone: string };
  };
  /** N1*PE with XX. */
  payee: { npi: string; name: string };
  claims: Claim835[];
  /** PLB: provider-level adjustments (positive reduces the payment). */
  providerAdjustments?: { reason: string; reference?: string; amountCents: number }[];
  /** PLB02, YYYY-MM-DD: the fiscal period date; defaults to paymentDate. */
  fiscalPeriodDate?: string;
};

/**
 * Throws RangeError when the claims do not balance (TR3's service line and claim rules, in cents), the payment
 * would be negative, there are no claims, an amount is not integer cents, a date is malformed, or a value holds a
 * delimiter. Amounts may be negative (a reversal's are); BPR02 is never negative (BPR03 C, credit).
 */
export function build835(input: Build835Input): string {
  const { payer, payee, claims } = input;
  if (claims.length === 0) throw new RangeError('claims must hold at least one claim');
  if (input.traceNumber.length < 1 || input.traceNumber.length > 50)
    throw new RangeError('traceNumber must be 1..50 characters');
  if (!/^\d{10}$/.test(payee.npi)) throw new RangeError('payee.npi must be 10 digits');
  if (!/^\d{10}$/.test(payer.technicalContact.phone))
    throw new RangeError('payer.technicalContact.phone must be 10 digits');
  if (!/^\d{9}$/.test(payer.taxId)) throw new RangeError('payer.taxId must be 9 digits');

  let paidTotal = 0;
  const detail: ElementValue[][] = [['LX', '1']];
  claims.forEach((claim, i) => {
    assertClaimBalanced(claim, `claims[${i}]`);
    paidTotal += claim.paidCents;
    detail.push(
      [
        'CLP',
        claim.claimId,
        claim.statusCode,
        amount(claim.chargeCents),
        amount(claim.paidCents),
        claim.patientResponsibilityCents === 0 ? '' : amount(claim.patientResponsibilityCents),
        claim.filingIndicator ?? '12',
        claim.payerClaimId,
        claim.facilityCode ?? '',
        claim.facilityCode === undefined ? '' : '1',
      ],
      ...casSegments(claim.adjustments),
      personNm1('QC', claim.patient, 'MI', claim.patient.memberId),
    );
    if (claim.lines.length === 0 || claim.lines.some((line) => line.serviceDate === undefined)) {
      if (claim.statementFrom === undefined)
        throw new RangeError(`claims[${i}].statementFrom is required when a line has no serviceDate`);
      detail.push(['DTM', '232', toD8(claim.statementFrom, `claims[${i}].statementFrom`)]);
      if (claim.statementTo !== undefined && claim.statementTo !== claim.statementFrom)
        detail.push(['DTM', '233', toD8(claim.statementTo, `claims[${i}].statementTo`)]);
    }
    claim.lines.forEach((line, j) => {
      detail.push([
        'SVC',
        ['HC', line.procedureCode, ...(line.modifiers ?? [])],
        amount(line.chargeCents),
        amount(line.paidCents),
        '',
        String(line.units),
      ]);
      if (line.serviceDate !== undefined)
        detail.push(['DTM', '472', toD8(line.serviceDate, `claims[${i}].lines[${j}].serviceDate`)]);
      detail.push(...casSegments(line.adjustments));
    });
  });
  const providerAdjustments = input.providerAdjustments ?? [];
  let providerTotal = 0;
  for (const adjustment of providerAdjustments) providerTotal += cents(adjustment.amountCents, 'providerAdjustments');
  const paymentCents = paidTotal - providerTotal;
  if (paymentCents < 0) throw new RangeError('the payment (sum of CLP04 - sum of PLB) must not be negative');
  if (paymentCents > MAX_AMOUNT_CENTS) throw new RangeError('the payment is larger than MAX_AMOUNT_CENTS');
  const paymentDate = toD8(input.paymentDate, 'paymentDate');
  // PLB holds at most six adjustment identifier/amount pairs; more start another PLB (TR3 PLB notes).
  for (let i = 0; i < providerAdjustments.length; i += 6) {
    const pairs = providerAdjustments
      .slice(i, i + 6)
      .flatMap((adjustment): ElementValue[] => [
        adjustment.reference === undefined ? adjustment.reason : [adjustment.reason, adjustment.reference],
        amount(adjustment.amountCents),
      ]);
    detail.push(['PLB', payee.npi, toD8(input.fiscalPeriodDate ?? input.paymentDate, 'fiscalPeriodDate'), ...pairs]);
  }

  const body: ElementValue[][] = [
    // BPR01 I remittance information with the payment, H notification only (nothing paid); BPR03 C credit.
    [
      'BPR',
      paymentCents === 0 ? 'H' : 'I',
      formatAmount(paymentCents),
      'C',
      paymentCents === 0 ? 'NON' : input.paymentMethod,
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      paymentDate,
    ],
    ['TRN', '1', input.traceNumber, `1${payer.taxId}`],
    ['N1', 'PR', fitName(payer.name, NAME_LAST_OR_ORGANIZATION_MAX), 'XV', payer.id],
    ['N3', fitName(payer.address.line1, 55), fitName(payer.address.line2 ?? '', 55)],
    ['N4', fitName(payer.address.city, 30), payer.address.state, payer.address.postalCode],
    ['PER', 'BL', payer.technicalContact.name ?? '', 'TE', payer.technicalContact.phone],
    ['N1', 'PE', fitName(payee.name, NAME_LAST_OR_ORGANIZATION_MAX), 'XX', payee.npi],
    ...detail,
  ];
  return buildInterchange(
    input,
    // ST03 is not used in the 835 TR3 (its examples send ST*835*{control number} only).
    { functionalId: 'HP', transactionSetId: '835', implementationReference: '005010X221A1', writesSt03: false },
    body,
  );
}

/** The TR3's service line and claim balancing rules (assert-remittance-balanced.ts checks the same on reading). */
function assertClaimBalanced(claim: Claim835, field: string): void {
  let lineAdjustments = 0;
  let linesPaid = 0;
  claim.lines.forEach((line, j) => {
    const adjustments = sumOf(line.adjustments, `${field}.lines[${j}].adjustments`);
    if (cents(line.chargeCents, field) - adjustments !== cents(line.paidCents, field))
      throw new RangeError(`${field}.lines[${j}] does not balance: chargeCents - adjustments must equal paidCents`);
    lineAdjustments += adjustments;
    linesPaid += line.paidCents;
  });
  const claimAdjustments = sumOf(claim.adjustments, `${field}.adjustments`);
  cents(claim.patientResponsibilityCents, field);
  if (cents(claim.chargeCents, field) - claimAdjustments - lineAdjustments !== cents(claim.paidCents, field))
    throw new RangeError(`${field} does not balance: chargeCents - every adjustment must equal paidCents`);
  if (claim.lines.length > 0 && linesPaid - claimAdjustments !== claim.paidCents)
    throw new RangeError(`${field} does not balance: the lines' paidCents - claim adjustments must equal paidCents`);
}

function sumOf(adjustments: readonly Adjustment835[], field: string): number {
  let total = 0;
  for (const adjustment of adjustments) total += cents(adjustment.amountCents, field);
  return total;
}

/** One CAS per group, up to six reason/amount pairs each (CAS02..CAS19), in the order given. */
function casSegments(adjustments: readonly Adjustment835[]): ElementValue[][] {
  const segments: ElementValue[][] = [];
  let current: ElementValue[] | null = null;
  for (const adjustment of adjustments) {
    if (!current || current[1] !== adjustment.group || current.length >= 1 + 6 * 3) {
      current = ['CAS', adjustment.group];
      segments.push(current);
    } else {
      current.push(''); // the previous pair's CAS04 quantity, not sent
    }
    current.push(adjustment.reason, amount(adjustment.amountCents));
  }
  return segments;
}

function cents(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || Math.abs(value) > MAX_AMOUNT_CENTS)
    throw new RangeError(`${field}: amounts must be integer cents of at most MAX_AMOUNT_CENTS`);
  return value;
}

/** A signed amount the X12 way ("-150.5"): formatAmount on the magnitude. */
function amount(value: number): string {
  return value < 0 ? `-${formatAmount(-value)}` : formatAmount(value);
}
