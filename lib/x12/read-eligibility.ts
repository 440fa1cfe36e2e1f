// Applies ELIGIBILITY.md to a 271: status, rejection and every result field, with the verbatim segments each
// value came from. Pure: the date of service is an argument. The loop structure itself is read-271.ts's job.
import { read271, type Loop2000, type Loop2110, type Response271 } from './read-271';
import type { Segment } from './read-interchange';
import { FOLLOW_UP_ACTIONS, REJECT_REASONS } from './reject-reason-codes';

export type Amounts = { individual: number | null; met: number | null; remaining: number | null }; // integer cents

export type RejectionLoop = '2100A' | '2100B' | '2100C' | '2100D';

export type Rejection = {
  reasonCode: string;
  reason: string;
  followUpCode: string | null;
  followUp: string | null;
  loop: RejectionLoop;
};

export type EligibilityFindings = {
  status: 'active' | 'inactive' | 'unknown';
  eligible: boolean;
  rejection: Rejection | null;
  memberId: string | null;
  memberName: string | null;
  planName: string | null;
  groupNumber: string | null;
  deductible: Amounts;
  outOfPocket: Amounts;
  copay: { specialist: number | null; primaryCare: number | null };
  coinsurance: number | null;
  coverageStart: string | null;
  coverageEnd: string | null;
  priorAuthRequired: boolean;
  priorAuthCodes: string[];
  network: 'IN' | 'OUT' | 'UNKNOWN';
  /** Field path ("deductible.met") to the verbatim segments its value came from; only fields that got a value. */
  evidence: Record<string, string[]>;
};

export type ReadEligibilityOptions = { /** YYYY-MM-DD */ dateOfService: string; serviceTypeCode: string };

const OFFICE_TYPES = new Set(['98', 'BY', 'BZ', '96', 'A0', '1']);
const ACTIVE_CODES = new Set(['1', '2', '3', '4', '5']);
const STATUS_CODES = new Set(['1', '2', '3', '4', '5', '6', '7', '8']);
// EB06 time period qualifiers for a total, in preference order (ELIGIBILITY.md); 26 (episode) is not a total.
const TOTAL_PERIODS = ['23', '22', '25', '21', ''];
// EB07 of 99999.99 or more is the payers' "no limit" convention, not an amount.
const NO_LIMIT_CENTS = 9_999_999;
// A row's EB07 is kept as one integer with two negative sentinels rather than an object, a string or null: a field
// that only ever holds small integers keeps one representation, so V8 does not throw away the optimised mapping
// while it warms up (each recompile took 100-250 ms on the shared bench machine), and no object is allocated.
const NO_AMOUNT = -1;
const NO_LIMIT = -2;

const PRIMARY_WORDS = ['PRIMARY', 'PCP', 'PRIME CARE'];
const SPECIALIST_WORDS = ['SPECIALIST', 'SPEC OFFICE', 'SPEC VISIT', 'SPC'];
// Whole words, case-insensitive, any run of spaces between words (payers pad free text).
const OUT_OF_NETWORK = /(?<![A-Z0-9])(?:OUT +OF +NETWORK|OUT-OF-NETWORK|OUT +NETWORK|NOT +IN +NETWORK|NON-PARTICIPATING|NON +PARTICIPATING|NON +PAR)(?![A-Z0-9])/i;
const IN_NETWORK = /(?<![A-Z0-9])(?:IN +NETWORK|IN-NETWORK|PARTICIPATING)(?![A-Z0-9])/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

type AmountFields = { individual: string; met: string; remaining: string };
const DEDUCTIBLE_FIELDS: AmountFields = { individual: 'deductible.individual', met: 'deductible.met', remaining: 'deductible.remaining' };
const OUT_OF_POCKET_FIELDS: AmountFields = { individual: 'outOfPocket.individual', met: 'outOfPocket.met', remaining: 'outOfPocket.remaining' };
// REF qualifier and the element holding the value, in preference order.
const PLAN_NAME_REFS: readonly (readonly [string, number])[] = [['18', 3], ['6P', 3]];
const GROUP_NUMBER_REFS: readonly (readonly [string, number])[] = [['6P', 2], ['1L', 2]];

/** A patient's 2110 row with the values every rule looks at, computed once (EB03 is scanned here and nowhere else). */
type Row = {
  readonly benefit: Loop2110;
  readonly eb: Segment;
  readonly index: number;
  readonly eb01: string;
  readonly isIndividual: boolean;
  readonly eb06: string;
  readonly isActive: boolean;
  readonly isStatus: boolean;
  readonly hasPlanType: boolean;
  readonly hasRequestedType: boolean;
  readonly hasOfficeType: boolean;
  /** 0 requested type, 1 health benefit plan coverage (30), 2 an office type, 3 none of these. */
  readonly serviceRank: number;
  /** EB12: Y in network first, then W (not applicable) or empty, then U (unknown). */
  readonly networkRank: number;
  /** A row never feeds a field when it is EB12 N (not in plan network) or on an unrelated service type. */
  readonly isFeeding: boolean;
  /** EB07 in cents, NO_AMOUNT when it is not a plain amount, NO_LIMIT for the "no limit" convention. */
  readonly amountCents: number;
};

// Every row comes from this one object literal, so all rows share one hidden class. Not a class: a class
// instance's final shape is only weakly held, so each full GC (frequent next to a parser that allocates a lot)
// dropped it and threw away every optimised function that reads rows.
function readRow(benefit: Loop2110, index: number, requested: string): Row {
  const eb = benefit.eb;
  const eb01 = element(eb, 1);
  let hasPlanType = false;
  let hasRequestedType = false;
  let hasOfficeType = false;
  for (const code of benefit.serviceTypeCodes) {
    if (code === requested) hasRequestedType = true;
    if (code === '30') hasPlanType = true;
    else if (OFFICE_TYPES.has(code)) hasOfficeType = true;
  }
  const serviceRank = hasRequestedType ? 0 : hasPlanType ? 1 : hasOfficeType ? 2 : 3;
  const eb12 = element(eb, 12);
  return {
    benefit,
    eb,
    index,
    eb01,
    isIndividual: element(eb, 2) === 'IND',
    eb06: element(eb, 6),
    isActive: ACTIVE_CODES.has(eb01),
    isStatus: STATUS_CODES.has(eb01),
    hasPlanType,
    hasRequestedType,
    hasOfficeType,
    serviceRank,
    networkRank: eb12 === 'Y' ? 0 : eb12 === 'W' || eb12 === '' ? 1 : 2,
    isFeeding: eb12 !== 'N' && serviceRank < 3,
    amountCents: readAmountCents(element(eb, 7)),
  };
}

/**
 * Reads a 271 (its text, or what read271 made of it) and applies ELIGIBILITY.md. Throws X12ReadError when the
 * text is not a readable 271 (kind 'ta1' or '999' for an acknowledgment in its place) and RangeError when
 * dateOfService is not YYYY-MM-DD.
 */
export function readEligibility(x12: string | Response271, options: ReadEligibilityOptions): EligibilityFindings {
  if (!ISO_DATE.test(options.dateOfService)) throw new RangeError('dateOfService must be YYYY-MM-DD');
  const response = typeof x12 === 'string' ? read271(x12) : x12;
  const evidence: Record<string, string[]> = {};
  const { subscriber, dependent } = findPatientLoops(response.loops);
  const patient = dependent ?? subscriber;

  const rejection = findRejection(response.loops, evidence);

  // Plain loops instead of map/filter chains: this runs per 271 on the verify path, and fewer callbacks and
  // intermediate arrays keep it cheap before V8 has optimised it as well as after.
  const allRows: Row[] = [];
  const feeding: Row[] = [];
  if (patient) {
    const benefits = patient.benefits;
    for (let i = 0; i < benefits.length; i++) {
      const row = readRow(benefits[i]!, i, options.serviceTypeCode);
      allRows.push(row);
      if (row.isFeeding) feeding.push(row);
    }
  }

  const refLoops: readonly (readonly Segment[])[] = dependent && subscriber ? [dependent.loop2100, subscriber.loop2100] : [patient?.loop2100 ?? []];
  const dtpSources: Segment[] = [];
  if (patient) {
    for (const segment of patient.loop2100) if (segment.id === 'DTP') dtpSources.push(segment);
  }
  for (const row of feeding) {
    for (const dtp of row.benefit.dtp) dtpSources.push(dtp);
  }
  const coverageStart = findCoverageDate(dtpSources, true, evidence);
  const coverageEnd = findCoverageDate(dtpSources, false, evidence);

  const status = rejection ? 'unknown' : readStatus(allRows, options.dateOfService, coverageStart, coverageEnd, evidence);

  // Computed in this order because each one adds its evidence as it goes (the evidence keys keep this order).
  const memberId = note(evidence, 'memberId', subscriber?.nm1, nonEmpty(element(subscriber?.nm1, 9)));
  const memberName = readMemberName(patient?.nm1 ?? null, evidence);
  const planName = readPlanName(feeding, refLoops, evidence);
  const groupNumber = findRef(refLoops, GROUP_NUMBER_REFS, 'groupNumber', evidence);
  const deductible = readAmounts(feeding, 'C', DEDUCTIBLE_FIELDS, evidence);
  const outOfPocket = readAmounts(feeding, 'G', OUT_OF_POCKET_FIELDS, evidence);
  const copay = readCopays(feeding, evidence);
  const coinsurance = readCoinsurance(feeding, evidence);
  const priorAuth = readPriorAuth(allRows, response.delimiters.component, evidence);
  const network = readNetwork(feeding, evidence);
  return {
    status,
    eligible: status === 'active',
    rejection,
    memberId,
    memberName,
    planName,
    groupNumber,
    deductible,
    outOfPocket,
    copay,
    coinsurance,
    coverageStart,
    coverageEnd,
    priorAuthRequired: priorAuth.priorAuthRequired,
    priorAuthCodes: priorAuth.priorAuthCodes,
    network,
    evidence,
  };
}

function element(segment: Segment | null | undefined, position: number): string {
  return segment?.elements[position] ?? '';
}

function nonEmpty(value: string): string | null {
  return value === '' ? null : value;
}

function note<T>(evidence: Record<string, string[]>, field: string, source: Segment | null | undefined, value: T | null): T | null {
  if (value !== null && source) evidence[field] = [source.raw];
  return value;
}

/** The first 2000C in the file is the subscriber; the patient is its dependent when a 2000D follows it. */
function findPatientLoops(loops: readonly Loop2000[]): { subscriber: Loop2000 | null; dependent: Loop2000 | null } {
  let subscriber: Loop2000 | null = null;
  for (const loop of loops) {
    if (loop.level === 'C') {
      if (subscriber) break;
      subscriber = loop;
    } else if (loop.level === 'D' && subscriber) {
      return { subscriber, dependent: loop };
    }
  }
  return { subscriber, dependent: null };
}

/** The first AAA in 2000A/2100A..2100D (never one inside 2110, which answers one EQ only). */
function findRejection(loops: readonly Loop2000[], evidence: Record<string, string[]>): Rejection | null {
  for (const loop of loops) {
    const rejection = findRejectionIn(loop.segments, loop, evidence) ?? findRejectionIn(loop.loop2100, loop, evidence);
    if (rejection) return rejection;
  }
  return null;
}

function findRejectionIn(segments: readonly Segment[], loop: Loop2000, evidence: Record<string, string[]>): Rejection | null {
  for (const segment of segments) {
    if (segment.id !== 'AAA') continue;
    const valid = element(segment, 1);
    if (valid !== 'Y' && valid !== 'N') continue;
    const reasonCode = element(segment, 3);
    const followUpCode = nonEmpty(element(segment, 4));
    evidence.rejection = [segment.raw];
    return {
      reasonCode,
      reason: REJECT_REASONS[reasonCode] ?? `Reject reason code ${reasonCode || '(none)'} (not in the 5010 271 code list)`,
      followUpCode,
      followUp: followUpCode === null ? null : (FOLLOW_UP_ACTIONS[followUpCode] ?? `Follow-up action code ${followUpCode}`),
      loop: `2100${loop.level}`,
    };
  }
  return null;
}

/** Ranking of ELIGIBILITY.md: level (IND first), network, service type, file order. */
function compareRows(a: Row, b: Row): number {
  if (a.isIndividual !== b.isIndividual) return a.isIndividual ? -1 : 1;
  if (a.networkRank !== b.networkRank) return a.networkRank - b.networkRank;
  if (a.serviceRank !== b.serviceRank) return a.serviceRank - b.serviceRank;
  return a.index - b.index;
}

/**
 * An X12 R amount ("1500", "25.00", ".2") to cents without floating point: NO_AMOUNT when not a plain amount,
 * NO_LIMIT at or above NO_LIMIT_CENTS. One scan by character code, no substrings.
 */
function readAmountCents(value: string): number {
  const length = value.length;
  let dot = -1;
  for (let i = 0; i < length; i++) {
    const c = value.charCodeAt(i);
    if (c === 46 && dot === -1) dot = i;
    else if (c < 48 || c > 57) return NO_AMOUNT; // a second dot is not an amount either
  }
  const wholeEnd = dot === -1 ? length : dot;
  const fractionStart = dot === -1 ? length : dot + 1;
  if (wholeEnd === 0 && fractionStart === length) return NO_AMOUNT; // "" or "."
  // R values may carry more places than cents; trailing zeros are harmless, anything else is not an amount.
  let fractionEnd = length;
  while (fractionEnd - fractionStart > 2 && value.charCodeAt(fractionEnd - 1) === 48) fractionEnd--;
  if (fractionEnd - fractionStart > 2 || wholeEnd > 13) return NO_AMOUNT;
  // Digit by digit into integer cents: exact, no floating-point fraction ever exists.
  let cents = 0;
  for (let i = 0; i < wholeEnd; i++) cents = cents * 10 + (value.charCodeAt(i) - 48);
  for (let i = fractionStart; i < fractionStart + 2; i++) cents = cents * 10 + (i < fractionEnd ? value.charCodeAt(i) - 48 : 0);
  return cents >= NO_LIMIT_CENTS ? NO_LIMIT : cents;
}

function readDecimal(value: string): { whole: string; fraction: string } | null {
  const dot = value.indexOf('.');
  const whole = dot === -1 ? value : value.slice(0, dot);
  const fraction = dot === -1 ? '' : value.slice(dot + 1);
  if (whole === '' && fraction === '') return null;
  if (!isDigits(whole) || !isDigits(fraction)) return null;
  return { whole: whole === '' ? '0' : whole, fraction };
}

function isDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Best individual row with this EB01 and EB06 and a usable EB07, or null. */
function findAmountRow(feeding: readonly Row[], eb01: string, eb06: string): Row | null {
  let winner: Row | null = null;
  for (const row of feeding) {
    if (row.eb01 !== eb01 || !row.isIndividual || row.eb06 !== eb06 || row.amountCents === NO_AMOUNT) continue;
    if (!winner || compareRows(row, winner) < 0) winner = row;
  }
  return winner;
}

/** The winner's cents, noting its evidence; null (and no evidence) for no winner or a "no limit" winner. */
function noteAmount(winner: Row | null, field: string, evidence: Record<string, string[]>, withMessages: boolean): number | null {
  if (!winner || winner.amountCents === NO_LIMIT) return null;
  const sources = [winner.eb.raw];
  if (withMessages) for (const m of winner.benefit.msg) sources.push(m.raw);
  evidence[field] = sources;
  return winner.amountCents;
}

/** Deductible (EB01 C) or out-of-pocket (EB01 G), individual level only. */
function readAmounts(feeding: readonly Row[], eb01: 'C' | 'G', fields: AmountFields, evidence: Record<string, string[]>): Amounts {
  let individual: number | null = null;
  for (const code of TOTAL_PERIODS) {
    const winner = findAmountRow(feeding, eb01, code);
    if (winner) {
      individual = noteAmount(winner, fields.individual, evidence, false);
      break;
    }
  }
  const remaining = noteAmount(findAmountRow(feeding, eb01, '29'), fields.remaining, evidence, false);
  const metRow = findAmountRow(feeding, eb01, '24');
  let met = noteAmount(metRow, fields.met, evidence, false);
  if (!metRow && individual !== null && remaining !== null) {
    met = Math.max(0, individual - remaining);
    evidence[fields.met] = [...evidence[fields.individual]!, ...evidence[fields.remaining]!];
  }
  return { individual, met, remaining };
}

const SPECIALIST_LABEL = 1;
const PRIMARY_LABEL = 2;

/** Which copay labels a row's MSG free text carries (SPECIALIST_WORDS, PRIMARY_WORDS; case-insensitive), as bits. */
function readCopayLabels(benefit: Loop2110): number {
  let labels = 0;
  for (const m of benefit.msg) {
    const text = element(m, 1).toUpperCase();
    if (hasWord(text, SPECIALIST_WORDS)) labels |= SPECIALIST_LABEL;
    if (hasWord(text, PRIMARY_WORDS)) labels |= PRIMARY_LABEL;
  }
  return labels;
}

function hasWord(text: string, words: readonly string[]): boolean {
  for (const word of words) if (text.includes(word)) return true;
  return false;
}

function readCopays(feeding: readonly Row[], evidence: Record<string, string[]>): EligibilityFindings['copay'] {
  let specialist: Row | null = null;
  let primary: Row | null = null;
  let unlabelled: Row | null = null;
  let unlabelledCount = 0;
  for (const row of feeding) {
    if (row.eb01 !== 'B' || !row.hasOfficeType) continue;
    const labels = readCopayLabels(row.benefit);
    if (labels === 0) {
      unlabelledCount++;
      unlabelled = row;
    }
    if (row.amountCents === NO_AMOUNT) continue;
    if ((labels & SPECIALIST_LABEL) !== 0 && (!specialist || compareRows(row, specialist) < 0)) specialist = row;
    if ((labels & PRIMARY_LABEL) !== 0 && (!primary || compareRows(row, primary) < 0)) primary = row;
  }
  const specialistCents = noteAmount(specialist, 'copay.specialist', evidence, true);
  let primaryCare = noteAmount(primary, 'copay.primaryCare', evidence, true);
  // A payer that sends one office copay without saying whose it is means the ordinary office visit.
  if (!primary && unlabelledCount === 1 && unlabelled!.amountCents !== NO_AMOUNT) {
    primaryCare = noteAmount(unlabelled, 'copay.primaryCare', evidence, true);
  }
  return { specialist: specialistCents, primaryCare };
}

/** EB08 as an integer percent: a fraction (".2") times 100, or already a percent when above 1. */
function readPercent(value: string): number | null {
  const decimal = readDecimal(value);
  if (!decimal || decimal.whole.length > 6) return null;
  const whole = Number(decimal.whole);
  const fractionIsZero = /^0*$/.test(decimal.fraction);
  if (whole > 1 || (whole === 1 && !fractionIsZero)) return fractionIsZero ? whole : null;
  const padded = decimal.fraction.padEnd(2, '0');
  if (!/^0*$/.test(padded.slice(2))) return null; // 12.5 % is not an integer percent; prefer null to a guess
  return whole * 100 + Number(padded.slice(0, 2));
}

function readCoinsurance(feeding: readonly Row[], evidence: Record<string, string[]>): number | null {
  let winner: Row | null = null;
  let percent: number | null = null;
  for (const row of feeding) {
    if (row.eb01 !== 'A' || !row.isIndividual) continue;
    const value = readPercent(element(row.eb, 8));
    if (value !== null && (!winner || compareRows(row, winner) < 0)) {
      winner = row;
      percent = value;
    }
  }
  if (!winner) return null;
  evidence.coinsurance = [winner.eb.raw];
  return percent;
}

/** Parses a run of ASCII digits the caller has already checked. */
function readDigits(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) value = value * 10 + (text.charCodeAt(i) - 48);
  return value;
}

/** CCYYMMDD to YYYY-MM-DD, null unless a real calendar date. */
function readDate(value: string | undefined): string | null {
  if (!value || value.length !== 8 || !isDigits(value)) return null;
  const year = readDigits(value, 0, 4);
  const month = readDigits(value, 4, 6);
  const day = readDigits(value, 6, 8);
  if (month < 1 || month > 12 || day < 1) return null;
  // Every month has 28 days; only later days need the calendar (and its Date allocation).
  if (day > 28 && day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
}

type DateTier = { qualifiers: readonly string[]; formats: readonly string[] };
// 2100C/D and 2110C/D DTP01: 356/357 eligibility begin/end, 346/347 plan begin/end, 291 plan, 307 eligibility.
const START_TIERS: DateTier[] = [
  { qualifiers: ['356'], formats: ['D8', 'RD8'] },
  { qualifiers: ['346'], formats: ['D8', 'RD8'] },
  { qualifiers: ['291', '307'], formats: ['RD8'] },
  { qualifiers: ['291', '307'], formats: ['D8'] },
];
const END_TIERS: DateTier[] = [
  { qualifiers: ['357'], formats: ['D8', 'RD8'] },
  { qualifiers: ['347'], formats: ['D8', 'RD8'] },
  { qualifiers: ['291', '307'], formats: ['RD8'] },
];
const OPEN_END = '99991231';

/** One side of an RD8 range (CCYYMMDD-CCYYMMDD) as String#split would give it: no end is undefined. */
function readRangePart(value: string, isStart: boolean): string | undefined {
  const dash = value.indexOf('-');
  if (isStart) return dash === -1 ? value : value.slice(0, dash);
  if (dash === -1) return undefined;
  const next = value.indexOf('-', dash + 1);
  return next === -1 ? value.slice(dash + 1) : value.slice(dash + 1, next);
}

function findCoverageDate(dtps: readonly Segment[], isStart: boolean, evidence: Record<string, string[]>): string | null {
  for (const tier of isStart ? START_TIERS : END_TIERS) {
    for (const dtp of dtps) {
      const format = element(dtp, 2);
      if (!tier.qualifiers.includes(element(dtp, 1)) || !tier.formats.includes(format)) continue;
      const value = element(dtp, 3);
      const part = format === 'RD8' ? readRangePart(value, isStart) : value;
      if (!isStart && part === OPEN_END) return null;
      const date = readDate(part);
      if (date) {
        evidence[isStart ? 'coverageStart' : 'coverageEnd'] = [dtp.raw];
        return date;
      }
    }
  }
  return null;
}

function readStatus(rows: readonly Row[], dateOfService: string, start: string | null, end: string | null, evidence: Record<string, string[]>): EligibilityFindings['status'] {
  let statusCount = 0;
  let onPlanCount = 0;
  for (const row of rows) {
    if (!row.isStatus) continue;
    statusCount++;
    if (row.hasPlanType) onPlanCount++;
  }
  if (statusCount === 0) return 'unknown';
  // Status rows on the plan (EB03 30) decide when there are any; otherwise every status row does.
  const planOnly = onPlanCount > 0;
  const inRange = (start === null || start <= dateOfService) && (end === null || dateOfService <= end);
  if (inRange) {
    const active: string[] = [];
    for (const row of rows) {
      if (row.isStatus && (!planOnly || row.hasPlanType) && row.isActive) active.push(row.eb.raw);
    }
    if (active.length > 0) {
      evidence.status = active;
      return 'active';
    }
  }
  const considered: string[] = [];
  for (const row of rows) {
    if (row.isStatus && (!planOnly || row.hasPlanType)) considered.push(row.eb.raw);
  }
  evidence.status = considered;
  return 'inactive';
}

function readMemberName(nm1: Segment | null, evidence: Record<string, string[]>): string | null {
  const last = element(nm1, 3);
  const first = element(nm1, 4);
  const name = first === '' ? last : last === '' ? first : `${first} ${last}`;
  return note(evidence, 'memberName', nm1, nonEmpty(name));
}

/** REF lookups use the patient's 2100 loop, then 2100C for a dependent; never a 2110 REF. */
function findRef(loops: readonly (readonly Segment[])[], sources: readonly (readonly [string, number])[], field: string, evidence: Record<string, string[]>): string | null {
  for (const [qualifier, position] of sources) {
    for (const loop of loops) {
      for (const ref of loop) {
        if (ref.id !== 'REF' || element(ref, 1) !== qualifier || element(ref, position) === '') continue;
        evidence[field] = [ref.raw];
        return element(ref, position);
      }
    }
  }
  return null;
}

function readPlanName(feeding: readonly Row[], refLoops: readonly (readonly Segment[])[], evidence: Record<string, string[]>): string | null {
  for (const row of feeding) {
    if (!row.isActive || !row.hasPlanType || element(row.eb, 5) === '') continue;
    evidence.planName = [row.eb.raw];
    return element(row.eb, 5);
  }
  return findRef(refLoops, PLAN_NAME_REFS, 'planName', evidence);
}

/** EB13 is a composite: EB13-1 qualifier (HC, AD, ...), EB13-2 the procedure code, then modifiers. */
function readProcedureCode(eb13: string, component: string): string {
  const first = eb13.indexOf(component);
  if (first === -1) return '';
  const next = eb13.indexOf(component, first + 1);
  return next === -1 ? eb13.slice(first + 1) : eb13.slice(first + 1, next);
}

/**
 * priorAuthRequired reads feeding rows only; priorAuthCodes reads every patient row with EB11 Y, whatever its
 * EB01, EB03 or EB12 (ELIGIBILITY.md: staff see every code the payer flags).
 */
function readPriorAuth(rows: readonly Row[], component: string, evidence: Record<string, string[]>): Pick<EligibilityFindings, 'priorAuthRequired' | 'priorAuthCodes'> {
  const requiring: string[] = [];
  const authSources: string[] = [];
  // A Set keeps "no repeats" linear: a hostile 271 can flag tens of thousands of codes.
  const codes = new Set<string>();
  for (const row of rows) {
    if (element(row.eb, 11) !== 'Y') continue;
    authSources.push(row.eb.raw);
    if (row.isFeeding && row.isActive && (row.hasRequestedType || row.hasPlanType)) requiring.push(row.eb.raw);
    for (const code of row.benefit.serviceTypeCodes) {
      if (code !== '') codes.add(code);
    }
    const procedure = readProcedureCode(element(row.eb, 13), component);
    if (procedure !== '') codes.add(procedure);
  }
  if (requiring.length > 0) evidence.priorAuthRequired = requiring;
  if (codes.size > 0) evidence.priorAuthCodes = authSources;
  // A Set iterates in insertion order: first seen first.
  return { priorAuthRequired: requiring.length > 0, priorAuthCodes: [...codes] };
}

/** MSGs of feeding rows only: a MSG on a row for another service type (or EB12 N) speaks of another benefit. */
function readNetwork(feeding: readonly Row[], evidence: Record<string, string[]>): EligibilityFindings['network'] {
  let hasMessages = false;
  let out: string[] | null = null;
  for (const row of feeding) {
    for (const m of row.benefit.msg) {
      hasMessages = true;
      if (OUT_OF_NETWORK.test(element(m, 1))) (out ??= []).push(m.raw);
    }
  }
  if (!hasMessages) return 'UNKNOWN';
  if (out) {
    evidence.network = out;
    return 'OUT';
  }
  let inNetwork: string[] | null = null;
  for (const row of feeding) {
    for (const m of row.benefit.msg) {
      if (IN_NETWORK.test(element(m, 1))) (inNetwork ??= []).push(m.raw);
    }
  }
  if (inNetwork) {
    evidence.network = inNetwork;
    return 'IN';
  }
  return 'UNKNOWN';
}
