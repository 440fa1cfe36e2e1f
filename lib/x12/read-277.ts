// Reads a 277 in either of its two uses: the 277CA claim acknowledgment (005010X214, the answer to an 837) and
// the 277 claim status response (005010X212, the answer to a 276). Per claim (2200D/2200E): our claim id, the
// payer's, the first STC's category, status and entity, its date and amounts, and whether it means accepted.
import { MAX_AMOUNT_CENTS } from '../money/cents';
import { decimalToCents, readDecimal } from '../money/decimal';
import { element } from './element';
import { readInterchange, type Segment } from './read-interchange';
import { X12ReadError } from './x12-read-error';

export type ClaimStatus277 = {
  /** 2200D/E TRN02 (277CA: CLM01 as sent; 277: the 276's trace) or REF*EJ (patient control number) when sent. */
  claimId: string;
  /** REF*1K. */
  payerClaimId: string | null;
  /** STC01-1, e.g. "A2". */
  statusCategory: string;
  /** STC01-2, e.g. "20". */
  statusCode: string;
  /** STC01-3, e.g. "85", when sent. */
  entityCode: string | null;
  /** STC02 as YYYY-MM-DD. */
  statusDate: string | null;
  /** STC04 in integer cents. */
  chargeCents: number | null;
  /** STC05 in integer cents. */
  paidCents: number | null;
  /** STC12 (free-form message), when sent. */
  message: string | null;
  /** See isAcceptedCategory. */
  accepted: boolean;
};

export type ClaimStatusReport = {
  /** 277CA when GS08/ST03 is 005010X214, 277 when it is 005010X212. */
  kind: '277CA' | '277';
  /** ISA13 of the 277 itself. */
  interchangeControlNumber: string;
  claims: ClaimStatus277[];
};

/**
 * Whether a status category says the payer has the claim (accepted) rather than refused it at the front end.
 * Rule (health care claim status category codes, X12 external code list 507, and the 277CA TR3 1.4.2):
 * accepted = A0, A1, A2, A5 (acknowledgments of receipt/acceptance), every F* (finalized: paid, denied, revised
 * and adjudicated claims were all accepted into adjudication first), every P* (pending in adjudication) and R*
 * (requests for information on a claim the payer holds); rejected = A3, A4, A6, A7, A8 (returned as unprocessable,
 * not found, rejected for missing or invalid information, rejected for relational field error), and E* (response
 * not possible: system status) and D0 (data search unsuccessful), which say nothing is known of the claim.
 */
export function isAcceptedCategory(category: string): boolean {
  const family = category.charAt(0);
  if (family === 'F' || family === 'P' || family === 'R') return true;
  return ACCEPTED_ACKNOWLEDGMENTS.has(category);
}

const ACCEPTED_ACKNOWLEDGMENTS: ReadonlySet<string> = new Set(['A0', 'A1', 'A2', 'A5']);

// HL03 of the levels a claim (2200D or 2200E) hangs from: PT in the 277CA, 22 subscriber and 23 dependent in the 277.
const CLAIM_LEVELS: ReadonlySet<string> = new Set(['PT', '22', '23']);

const KINDS: Readonly<Record<string, '277CA' | '277'>> = { '005010X214': '277CA', '005010X212': '277' };

const fail = (reason: string): never => {
  throw new X12ReadError('unreadable', reason);
};

/**
 * Every claim of every 277 in the interchange, in file order. A claim is a TRN*2 at a patient, subscriber or
 * dependent level; its status is its first claim-level STC (the line-level STCs after an SVC are not read). Throws
 * X12ReadError: 'ta1' for an interchange rejected with a TA1 and no 277; 'unreadable' when the text is not an
 * interchange of 277 transaction sets of one kind (005010X214 or 005010X212), holds no claim, a claim has no STC,
 * or an amount or date is malformed. Linear in the text.
 */
export function read277(x12: string): ClaimStatusReport {
  const interchange = readInterchange(x12);
  const transactions = interchange.groups.flatMap((group) => group.transactions);
  if (transactions.length === 0 && interchange.ta1.length > 0) {
    throw new X12ReadError('ta1', `interchange rejected with a TA1 (TA104 ${element(interchange.ta1[0], 4)})`);
  }
  if (transactions.length === 0) fail('no ST*277 transaction set in the interchange');
  let kind: '277CA' | '277' | null = null;
  const claims: ClaimStatus277[] = [];
  const component = interchange.delimiters.component;
  for (const transaction of transactions) {
    if (transaction.id !== '277') fail(`transaction set ${JSON.stringify(transaction.id.slice(0, 10))} is not a 277`);
    const reference = element(transaction.segments[0], 3);
    const setKind =
      KINDS[reference] ?? fail(`ST03 ${JSON.stringify(reference.slice(0, 20))} is neither 005010X214 nor 005010X212`);
    if (kind !== null && kind !== setKind) fail('the interchange mixes 277CA and 277 transaction sets');
    kind = setKind;
    readClaims(transaction.segments, component, claims);
  }
  if (claims.length === 0) fail('the 277 holds no claim status (2200D)');
  return { kind: kind!, interchangeControlNumber: interchange.controlNumber, claims };
}

type ClaimDraft = {
  trn: Segment;
  stc: Segment | null;
  payerClaimId: string | null;
  patientControlNumber: string | null;
};

function readClaims(segments: readonly Segment[], component: string, claims: ClaimStatus277[]): void {
  let level = '';
  let claim: ClaimDraft | null = null;
  let isLineLevel = false;
  const close = () => {
    if (claim) claims.push(toClaimStatus(claim, component));
    claim = null;
  };
  for (let i = 1; i < segments.length - 1; i++) {
    const segment = segments[i]!;
    switch (segment.id) {
      case 'HL':
        close();
        level = element(segment, 3);
        break;
      case 'TRN':
        if (CLAIM_LEVELS.has(level) && element(segment, 1) === '2') {
          close();
          claim = { trn: segment, stc: null, payerClaimId: null, patientControlNumber: null };
          isLineLevel = false;
        }
        break;
      case 'STC':
        if (claim && !isLineLevel) (claim as ClaimDraft).stc ??= segment;
        break;
      case 'REF':
        if (claim && !isLineLevel) {
          const draft: ClaimDraft = claim;
          const value = element(segment, 2) || null;
          if (element(segment, 1) === '1K') draft.payerClaimId ??= value;
          else if (element(segment, 1) === 'EJ') draft.patientControlNumber ??= value;
        }
        break;
      case 'SVC':
        isLineLevel = true;
        break;
      default:
        break;
    }
  }
  close();
}

function toClaimStatus(claim: ClaimDraft, component: string): ClaimStatus277 {
  const claimId = claim.patientControlNumber ?? element(claim.trn, 2);
  if (claimId === '') fail('a 2200D TRN has no TRN02');
  const stc = claim.stc ?? fail('a claim (2200D) has no STC');
  const [category = '', code = '', entity = ''] = element(stc, 1).split(component);
  if (category === '' || code === '') fail('STC01 has no category or status code');
  const statusDate = element(stc, 2);
  return {
    claimId,
    payerClaimId: claim.payerClaimId,
    statusCategory: category,
    statusCode: code,
    entityCode: entity || null,
    statusDate: statusDate === '' ? null : readDate(statusDate, 'STC02'),
    chargeCents: readOptionalCents(element(stc, 4), 'STC04'),
    paidCents: readOptionalCents(element(stc, 5), 'STC05'),
    message: element(stc, 12) || null,
    accepted: isAcceptedCategory(category),
  };
}

/** CCYYMMDD to YYYY-MM-DD. */
function readDate(value: string, name: string): string {
  const month = Number(value.slice(4, 6));
  const day = Number(value.slice(6, 8));
  if (!/^\d{8}$/.test(value) || month < 1 || month > 12 || day < 1 || day > 31) fail(`${name} is not a CCYYMMDD date`);
  return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
}

/** An X12 R amount (a leading minus allowed) in integer cents, null when absent; at most MAX_AMOUNT_CENTS. */
function readOptionalCents(value: string, name: string): number | null {
  if (value === '') return null;
  const isNegative = value.startsWith('-');
  const decimal = readDecimal(isNegative ? value.slice(1) : value);
  const cents = decimal && decimal.fraction.length <= 2 ? decimalToCents(decimal) : null;
  if (cents === null) return fail(`${name} is not an amount`);
  if (cents > MAX_AMOUNT_CENTS) fail(`${name} is larger than ${MAX_AMOUNT_CENTS} cents`);
  return isNegative && cents !== 0 ? -cents : cents;
}
