// The row model every field rule reads: one per 2110C/D benefit (EB) of the patient, with the values the rules
// look at read once (EB03 is scanned here and nowhere else), and the ranking ELIGIBILITY.md applies when
// several rows could feed the same field. What each field takes from the rows is its own reader's.
import { decimalToCents, readDecimal } from '../../money/decimal';
import { element } from '../element';
import type { Loop2110 } from '../read-271';
import type { Segment } from '../read-interchange';

export type BenefitRow = {
  readonly benefit: Loop2110;
  readonly eb: Segment;
  /** File order among the patient's rows: the last tie-break of the ranking. */
  readonly index: number;
  /** EB01, the eligibility or benefit information code (1 active, 6 inactive, C deductible, B copay...). */
  readonly eb01: string;
  /** EB02 IND: the individual's own benefit, not the family's. */
  readonly isIndividual: boolean;
  /** EB06, the time period qualifier (23 calendar year, 29 remaining, 24 year to date...). */
  readonly eb06: string;
  /** EB01 1-5: active coverage of some kind. */
  readonly isActive: boolean;
  /** EB01 1-8: a coverage status row (active or inactive), as opposed to a benefit amount. */
  readonly isStatus: boolean;
  /** EB03 carries 30, health benefit plan coverage. */
  readonly hasPlanType: boolean;
  /** EB03 carries the service type the inquiry asked about. */
  readonly hasRequestedType: boolean;
  /** EB03 carries an office visit type (98, BY, BZ, 96, A0, 1). */
  readonly hasOfficeType: boolean;
  /** 0 requested type, 1 health benefit plan coverage (30), 2 an office type, 3 none of these. */
  readonly serviceRank: number;
  /** EB12: 0 for Y (in network), 1 for W (not applicable) or empty, 2 otherwise (U, unknown). */
  readonly networkRank: number;
  /** A row never feeds a field when it is EB12 N (not in plan network) or on an unrelated service type. */
  readonly isFeeding: boolean;
  /** EB07 in integer cents; 'no limit' for the payers' 99999.99-or-more convention; null when not an amount. */
  readonly amount: number | 'no limit' | null;
};

// Codes are compared in switches rather than looked up in Sets: each code is a string freshly read from the 271,
// and hashing it for a Set cost more than the comparisons (bench x12-read).
function isOfficeType(code: string): boolean {
  switch (code) {
    case '98':
    case 'BY':
    case 'BZ':
    case '96':
    case 'A0':
    case '1':
      return true;
    default:
      return false;
  }
}

/** EB01 1-5 (active coverage of some kind) is 1; 6-8 (inactive) is 2; anything else 0. */
function statusKind(eb01: string): 0 | 1 | 2 {
  if (eb01.length !== 1) return 0;
  const code = eb01.charCodeAt(0);
  if (code >= 49 && code <= 53) return 1; // '1'-'5'
  return code >= 54 && code <= 56 ? 2 : 0; // '6'-'8'
}
// EB07 of 99999.99 or more is the payers' "no limit" convention, not an amount.
const NO_LIMIT_CENTS = 9_999_999;
// EB07 is an R (decimal) element; 13 whole digits and two places stay well inside exact integer cents.
const MAX_WHOLE_DIGITS = 13;

/** The row model of one benefit; `requestedType` is the inquiry's service type code. */
export function readBenefitRow(benefit: Loop2110, index: number, requestedType: string): BenefitRow {
  const eb = benefit.eb;
  const eb01 = element(eb, 1);
  let hasPlanType = false;
  let hasRequestedType = false;
  let hasOfficeType = false;
  for (const code of benefit.serviceTypeCodes) {
    if (code === requestedType) hasRequestedType = true;
    if (code === '30') hasPlanType = true;
    else if (isOfficeType(code)) hasOfficeType = true;
  }
  const serviceRank = hasRequestedType ? 0 : hasPlanType ? 1 : hasOfficeType ? 2 : 3;
  const eb12 = element(eb, 12);
  const status = statusKind(eb01);
  return {
    benefit,
    eb,
    index,
    eb01,
    isIndividual: element(eb, 2) === 'IND',
    eb06: element(eb, 6),
    isActive: status === 1,
    isStatus: status !== 0,
    hasPlanType,
    hasRequestedType,
    hasOfficeType,
    serviceRank,
    networkRank: eb12 === 'Y' ? 0 : eb12 === 'W' || eb12 === '' ? 1 : 2,
    isFeeding: eb12 !== 'N' && serviceRank < 3,
    amount: readAmount(element(eb, 7)),
  };
}

/** Ranking of ELIGIBILITY.md, best first: level (IND first), network, service type, file order. */
export function compareRows(a: BenefitRow, b: BenefitRow): number {
  if (a.isIndividual !== b.isIndividual) return a.isIndividual ? -1 : 1;
  if (a.networkRank !== b.networkRank) return a.networkRank - b.networkRank;
  if (a.serviceRank !== b.serviceRank) return a.serviceRank - b.serviceRank;
  return a.index - b.index;
}

/** An X12 R amount ("1500", "25.00", ".2"; places past the second only as trailing zeros) to cents. */
function readAmount(eb07: string): BenefitRow['amount'] {
  const decimal = readDecimal(eb07);
  if (!decimal || decimal.whole.length > MAX_WHOLE_DIGITS) return null;
  const cents = decimalToCents(decimal);
  if (cents === null) return null;
  return cents >= NO_LIMIT_CENTS ? 'no limit' : cents;
}
