// Reads one 005010X221A1 835 transaction set into the remittance object DECISIONS.md "Money in" fixes, amounts in
// integer cents with the sign the 835 gives. It does not check that the amounts balance (assert-remittance-
// balanced.ts does) nor decide what a payment means for a claim (posting does).
import { MAX_AMOUNT_CENTS, type Cents } from '../money/cents';
import { decimalToCents, readDecimal } from '../money/decimal';
import type { Delimiters, Segment } from './read-interchange';
import { X12ReadError } from './x12-read-error';

/** One CAS reason/amount pair; `group` is CAS01 (CO, PR, OA, PI, CR). */
export type CasAdjustment = { group: string; reason: string; amountCents: Cents };

/** Loop 2110: one SVC with the CAS that follow it. */
export type ServicePayment = {
  procedureCode: string;
  modifiers: string[];
  chargeCents: Cents;
  paidCents: Cents;
  units: number;
  adjustments: CasAdjustment[];
};

/** Loop 2100: one CLP. `adjustments` are its claim-level CAS only; each line holds its own. */
export type ClaimPayment = {
  claimId: string;
  /** CLP07, null when the payer sent none. */
  payerClaimId: string | null;
  statusCode: string;
  chargeCents: Cents;
  paidCents: Cents;
  patientResponsibilityCents: Cents;
  adjustments: CasAdjustment[];
  lines: ServicePayment[];
};

/** One PLB reason/amount pair. A positive amount reduces the payment (TR3 sign convention). */
export type ProviderAdjustment = { reason: string; reference: string | null; amountCents: Cents };

export type Remittance = {
  payerId: string;
  payerName: string;
  payeeNpi: string | null;
  traceNumber: string;
  paymentMethod: string;
  /** BPR02, negative when BPR03 is D (a debit to the payee's account). */
  paymentCents: Cents;
  /** BPR16 as YYYY-MM-DD. */
  paymentDate: string;
  claims: ClaimPayment[];
  providerAdjustments: ProviderAdjustment[];
};

/** The 835 without its claims: what a reader that hands each claim on as it closes gives at the end. */
export type RemittanceHeader = Omit<Remittance, 'claims'>;

const fail = (reason: string): never => {
  throw new X12ReadError('unreadable', reason);
};

/**
 * Reads one transaction set a segment at a time (those between ST and SE, in order), so a caller walking a large
 * file lazily need not hold its segments, and hands each claim to `onClaim` as soon as it closes (at the next CLP,
 * at a PLB, at `finish`), so it need not hold its claims either. `take` throws X12ReadError('unreadable') for an
 * amount that is not a decimal of at most two places or a CAS/SVC outside a claim; `finish` for a missing BPR/TRN
 * or a bad BPR.
 */
export function remittanceReader(
  delimiters: Delimiters,
  onClaim: (claim: ClaimPayment) => void,
): { take(segment: Segment): void; finish(): RemittanceHeader } {
  let bpr: Segment | null = null;
  let trn: Segment | null = null;
  let payer: Segment | null = null;
  let payee: Segment | null = null;
  const providerAdjustments: ProviderAdjustment[] = [];
  let claim: ClaimPayment | null = null;
  let line: ServicePayment | null = null;
  const close = () => {
    if (claim) onClaim(claim);
    claim = null;
    line = null;
  };

  const take = (segment: Segment) => {
    switch (segment.id) {
      case 'BPR':
        bpr ??= segment;
        break;
      case 'TRN':
        trn ??= segment;
        break;
      case 'N1':
        // Loops 1000A (payer, N101 PR) and 1000B (payee, N101 PE) of the header.
        if (segment.elements[1] === 'PR') payer ??= segment;
        else if (segment.elements[1] === 'PE') payee ??= segment;
        break;
      case 'CLP':
        close();
        claim = readClaim(segment);
        break;
      case 'SVC':
        if (!claim) fail('SVC before any CLP');
        line = readLine(segment, delimiters.component, claim!.claimId);
        claim!.lines.push(line);
        break;
      case 'CAS': {
        // A CAS before the claim's first SVC is claim level (loop 2100); after an SVC it belongs to that line (2110).
        if (!claim) fail('CAS before any CLP');
        const target = line ?? claim!;
        target.adjustments.push(...readCas(segment));
        break;
      }
      case 'PLB':
        close();
        providerAdjustments.push(...readPlb(segment, delimiters.component));
        break;
      default:
        // NM1, REF, DTM, AMT, QTY, MIA, MOA, LX, TS3, N3, N4, PER...: not part of the object.
        break;
    }
  };

  const finish = (): RemittanceHeader => {
    close();
    if (!bpr) fail('no BPR (financial information) segment');
    if (!trn) fail('no TRN (reassociation trace number) segment');
    const traceNumber = trn!.elements[2] ?? '';
    if (traceNumber === '') fail('TRN02 (trace number) is missing');
    const payment = readAmount(bpr!.elements[2], 'BPR02');
    // The TR3 gives the direction in BPR03 (C credit, D debit); the amount itself is never negative (DECISIONS
    // "Security findings of 2026-11-28"): a negative BPR02 would post a payment as its opposite.
    if (payment < 0) fail(`BPR02 (total payment) is negative (${bpr!.elements[2]}): its direction is BPR03 C or D`);
    return {
      payerId: readPayerId(payer, trn!),
      payerName: payer?.elements[2] ?? '',
      payeeNpi: payee?.elements[3] === 'XX' && payee.elements[4] ? payee.elements[4] : null,
      traceNumber,
      paymentMethod: bpr!.elements[4] ?? '',
      paymentCents: (bpr!.elements[3] === 'D' ? 0 - payment : payment) as Cents, // 0 - x: a zero debit is 0, never -0
      paymentDate: readDate(bpr!.elements[16], 'BPR16'),
      providerAdjustments,
    };
  };
  return { take, finish };
}

/** N104 of the payer's N1; else TRN03, the payer's company id, without the one leading `1` of its EIN form. */
function readPayerId(payer: Segment | null, trn: Segment): string {
  const fromN1 = payer?.elements[4] ?? '';
  if (fromN1 !== '') return fromN1;
  const trn03 = trn.elements[3] ?? '';
  if (trn03 === '') fail('no payer id: neither N104 of the payer loop nor TRN03');
  return trn03.startsWith('1') ? trn03.slice(1) : trn03;
}

function readClaim(clp: Segment): ClaimPayment {
  const claimId = clp.elements[1] ?? '';
  if (claimId === '') fail('CLP01 (claim id) is missing');
  const where = `of claim ${JSON.stringify(claimId)}`;
  const patientResponsibility = clp.elements[5] ?? '';
  return {
    claimId,
    payerClaimId: clp.elements[7] || null,
    statusCode: clp.elements[2] ?? '',
    chargeCents: readAmount(clp.elements[3], `CLP03 ${where}`),
    paidCents: readAmount(clp.elements[4], `CLP04 ${where}`),
    patientResponsibilityCents:
      patientResponsibility === '' ? (0 as Cents) : readAmount(patientResponsibility, `CLP05 ${where}`),
    adjustments: [],
    lines: [],
  };
}

function readLine(svc: Segment, component: string, claimId: string): ServicePayment {
  // SVC01 is a composite: qualifier (HC, AD...), procedure code, up to four modifiers, then a description.
  const procedure = (svc.elements[1] ?? '').split(component);
  const where = `of a line of claim ${JSON.stringify(claimId)}`;
  return {
    procedureCode: procedure[1] ?? '',
    modifiers: procedure.slice(2, 6).filter((modifier) => modifier !== ''),
    chargeCents: readAmount(svc.elements[2], `SVC02 ${where}`),
    paidCents: readAmount(svc.elements[3], `SVC03 ${where}`),
    units: readUnits(svc.elements[5] ?? '', where),
    adjustments: [],
  };
}

/** CAS01 is the group; then up to six reason (CAS02), amount (CAS03), quantity (CAS04) triples. */
function readCas(cas: Segment): CasAdjustment[] {
  const group = cas.elements[1] ?? '';
  const adjustments: CasAdjustment[] = [];
  for (let i = 2; i < cas.elements.length; i += 3) {
    const reason = cas.elements[i] ?? '';
    if (reason === '') continue;
    adjustments.push({
      group,
      reason,
      amountCents: readAmount(cas.elements[i + 1], `CAS amount for ${group}-${reason}`),
    });
  }
  if (adjustments.length === 0) fail(`CAS ${group} has no reason and amount`);
  return adjustments;
}

/** PLB01 provider, PLB02 fiscal date, then up to six adjustment identifier (reason:reference) and amount pairs. */
function readPlb(plb: Segment, component: string): ProviderAdjustment[] {
  const adjustments: ProviderAdjustment[] = [];
  for (let i = 3; i < plb.elements.length; i += 2) {
    const identifier = plb.elements[i] ?? '';
    if (identifier === '') continue;
    const separator = identifier.indexOf(component);
    const reason = separator === -1 ? identifier : identifier.slice(0, separator);
    const reference = separator === -1 ? null : identifier.slice(separator + 1) || null;
    adjustments.push({ reason, reference, amountCents: readAmount(plb.elements[i + 1], `PLB amount for ${reason}`) });
  }
  if (adjustments.length === 0) fail('PLB has no adjustment');
  return adjustments;
}

/**
 * An X12 R (decimal) amount to integer cents, digit by digit: "150", "150.5", "-12.34", ".5". The point is
 * optional and leading zeros may be suppressed (X12.6); a third decimal place or anything else is refused. Each
 * amount is capped at MAX_AMOUNT_CENTS, so a sum over every amount of a 1 MiB interchange stays a safe integer.
 */
function readAmount(value: string | undefined, name: string): Cents {
  if (value === undefined || value === '') return fail(`${name} is missing`);
  const isNegative = value.startsWith('-');
  const decimal = readDecimal(isNegative ? value.slice(1) : value);
  const cents = decimal && decimal.fraction.length <= 2 ? decimalToCents(decimal) : null;
  if (cents === null) return fail(`${name} is not an amount: ${JSON.stringify(value.slice(0, 20))}`);
  if (cents > MAX_AMOUNT_CENTS) fail(`${name} is larger than ${MAX_AMOUNT_CENTS} cents`);
  return (isNegative && cents !== 0 ? -cents : cents) as Cents;
}

// SVC05 is an R element too: a count that may carry a fraction (1.5 hours of therapy).
const UNITS = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** SVC05 as written, 1 when absent (the TR3 assumes one unit when SVC05 is not sent). */
function readUnits(value: string, where: string): number {
  if (value === '') return 1;
  const isNegative = value.startsWith('-');
  const digits = isNegative ? value.slice(1) : value;
  if (!UNITS.test(digits) || digits.length > 15) fail(`SVC05 ${where} is not a number of units`);
  return isNegative ? -Number(digits) : Number(digits);
}

/** CCYYMMDD to YYYY-MM-DD. */
function readDate(value: string | undefined, name: string): string {
  const text = value ?? '';
  const month = Number(text.slice(4, 6));
  const day = Number(text.slice(6, 8));
  if (!/^\d{8}$/.test(text) || month < 1 || month > 12 || day < 1 || day > 31) fail(`${name} is not a CCYYMMDD date`);
  return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
}
