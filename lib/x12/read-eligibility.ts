// Applies ELIGIBILITY.md to a 271: status, rejection and every result field, with the verbatim segments each
// value came from. Pure: the date of service is an argument. The loop structure itself is read-271.ts's job.
import { read271, type Loop2000, type Loop2110 } from './read-271';
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

const PRIMARY_WORDS = ['PRIMARY', 'PCP', 'PRIME CARE'];
const SPECIALIST_WORDS = ['SPECIALIST', 'SPEC OFFICE', 'SPEC VISIT', 'SPC'];
// Whole words, case-insensitive, any run of spaces between words (payers pad free text).
const OUT_OF_NETWORK = /(?<![A-Z0-9])(?:OUT +OF +NETWORK|OUT-OF-NETWORK|OUT +NETWORK|NOT +IN +NETWORK|NON-PARTICIPATING|NON +PARTICIPATING|NON +PAR)(?![A-Z0-9])/i;
const IN_NETWORK = /(?<![A-Z0-9])(?:IN +NETWORK|IN-NETWORK|PARTICIPATING)(?![A-Z0-9])/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

type Amount = { cents: number } | 'no-limit';
/** A patient's 2110 row with the values every rule looks at, computed once. */
type Row = {
  benefit: Loop2110; index: number; eb01: string; isIndividual: boolean; eb06: string;
  serviceRank: number; networkRank: number; amount: Amount | null; messages: string;
};

/**
 * Reads a 271 and applies ELIGIBILITY.md. Throws X12ReadError when the text is not a readable 271 (kind 'ta1' or
 * '999' for an acknowledgment in its place) and RangeError when dateOfService is not YYYY-MM-DD.
 */
export function readEligibility(x12: string, options: ReadEligibilityOptions): EligibilityFindings {
  if (!ISO_DATE.test(options.dateOfService)) throw new RangeError('dateOfService must be YYYY-MM-DD');
  const response = read271(x12);
  const evidence: Record<string, string[]> = {};
  const { subscriber, dependent } = findPatientLoops(response.loops);
  const patient = dependent ?? subscriber;
  const requested = options.serviceTypeCode;

  const rejection = findRejection(response.loops, evidence);

  const allRows: Row[] = (patient?.benefits ?? []).map((benefit, index) => ({
    benefit,
    index,
    eb01: element(benefit.eb, 1),
    isIndividual: element(benefit.eb, 2) === 'IND',
    eb06: element(benefit.eb, 6),
    serviceRank: rankServiceType(benefit.serviceTypeCodes, requested),
    networkRank: rankNetwork(benefit.eb),
    amount: readAmount(element(benefit.eb, 7)),
    messages: messageText(benefit),
  }));
  // A row never feeds a field when it is EB12 N (not in plan network) or on an unrelated service type.
  const feeding = allRows.filter((row) => element(row.benefit.eb, 12) !== 'N' && row.serviceRank < 3);

  const refLoops = [patient?.loop2100 ?? [], ...(dependent && subscriber ? [subscriber.loop2100] : [])];
  const dtpSources = [
    ...(patient?.loop2100.filter((s) => s.id === 'DTP') ?? []),
    ...feeding.flatMap((row) => row.benefit.dtp),
  ];
  const coverageStart = findCoverageDate(dtpSources, 'start', evidence);
  const coverageEnd = findCoverageDate(dtpSources, 'end', evidence);

  const status = rejection ? 'unknown' : readStatus(allRows, options.dateOfService, coverageStart, coverageEnd, evidence);

  const findings: EligibilityFindings = {
    status,
    eligible: status === 'active',
    rejection,
    memberId: note(evidence, 'memberId', subscriber?.nm1, nonEmpty(element(subscriber?.nm1, 9))),
    memberName: readMemberName(patient?.nm1 ?? null, evidence),
    planName: readPlanName(feeding, refLoops, evidence),
    groupNumber: findRef(refLoops, [['6P', 2], ['1L', 2]], 'groupNumber', evidence),
    deductible: readAmounts(feeding, 'C', 'deductible', evidence),
    outOfPocket: readAmounts(feeding, 'G', 'outOfPocket', evidence),
    copay: readCopays(feeding, evidence),
    coinsurance: readCoinsurance(feeding, evidence),
    coverageStart,
    coverageEnd,
    ...readPriorAuth(feeding, requested, response.delimiters.component, evidence),
    network: readNetwork(feeding, evidence),
    evidence,
  };
  return findings;
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
    for (const segments of [loop.segments, loop.loop2100]) {
      for (const segment of segments) {
        const valid = element(segment, 1);
        if (segment.id !== 'AAA' || (valid !== 'Y' && valid !== 'N')) continue;
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
    }
  }
  return null;
}

/** 0 requested type, 1 health benefit plan coverage (30), 2 an office type, 3 none of these. */
function rankServiceType(codes: readonly string[], requested: string): number {
  let rank = 3;
  for (const code of codes) {
    if (code === requested) return 0;
    if (code === '30') rank = Math.min(rank, 1);
    else if (OFFICE_TYPES.has(code)) rank = Math.min(rank, 2);
  }
  return rank;
}

/** EB12: Y in network first, then W (not applicable) or empty, then U (unknown). */
function rankNetwork(eb: Segment): number {
  const eb12 = element(eb, 12);
  if (eb12 === 'Y') return 0;
  if (eb12 === 'W' || eb12 === '') return 1;
  return 2;
}

/** Ranking of ELIGIBILITY.md: level (IND first), network, service type, file order. */
function best(rows: readonly Row[]): Row | null {
  let winner: Row | null = null;
  for (const row of rows) {
    if (!winner || compareRows(row, winner) < 0) winner = row;
  }
  return winner;
}

function compareRows(a: Row, b: Row): number {
  if (a.isIndividual !== b.isIndividual) return a.isIndividual ? -1 : 1;
  if (a.networkRank !== b.networkRank) return a.networkRank - b.networkRank;
  if (a.serviceRank !== b.serviceRank) return a.serviceRank - b.serviceRank;
  return a.index - b.index;
}

/** An X12 R amount ("1500", "25.00", ".2") to cents without floating point; null when not a plain amount. */
function readAmount(value: string): Amount | null {
  const decimal = readDecimal(value);
  if (!decimal) return null;
  let { fraction } = decimal;
  // R values may carry more places than cents; trailing zeros are harmless, anything else is not an amount.
  while (fraction.length > 2 && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  if (fraction.length > 2 || decimal.whole.length > 13) return null;
  // Digit by digit into integer cents: exact, no floating-point fraction ever exists.
  const digits = decimal.whole + fraction.padEnd(2, '0');
  let cents = 0;
  for (let i = 0; i < digits.length; i++) cents = cents * 10 + (digits.charCodeAt(i) - 48);
  return cents >= NO_LIMIT_CENTS ? 'no-limit' : { cents };
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

/** Best row with a usable EB07 among the candidates; a "no limit" winner gives null. */
function pickAmount(candidates: readonly Row[], field: string, evidence: Record<string, string[]>, withMessages = false): { found: boolean; cents: number | null } {
  let winner: Row | null = null;
  for (const row of candidates) {
    if (row.amount !== null && (!winner || compareRows(row, winner) < 0)) winner = row;
  }
  if (!winner) return { found: false, cents: null };
  const amount = winner.amount!;
  if (amount === 'no-limit') return { found: true, cents: null };
  evidence[field] = [winner.benefit.eb.raw, ...(withMessages ? winner.benefit.msg.map((m) => m.raw) : [])];
  return { found: true, cents: amount.cents };
}

/** Deductible (EB01 C) or out-of-pocket (EB01 G), individual level only. */
function readAmounts(feeding: readonly Row[], eb01: 'C' | 'G', field: string, evidence: Record<string, string[]>): Amounts {
  const rows = feeding.filter((row) => row.eb01 === eb01 && row.isIndividual);
  const period = (code: string) => rows.filter((row) => row.eb06 === code);

  let individual: number | null = null;
  for (const code of TOTAL_PERIODS) {
    const pick = pickAmount(period(code), `${field}.individual`, evidence);
    if (pick.found) {
      individual = pick.cents;
      break;
    }
  }
  const remaining = pickAmount(period('29'), `${field}.remaining`, evidence).cents;
  const metRow = pickAmount(period('24'), `${field}.met`, evidence);
  let met = metRow.cents;
  if (!metRow.found && individual !== null && remaining !== null) {
    met = Math.max(0, individual - remaining);
    evidence[`${field}.met`] = [...evidence[`${field}.individual`]!, ...evidence[`${field}.remaining`]!];
  }
  return { individual, met, remaining };
}

function messageText(benefit: Loop2110): string {
  if (benefit.msg.length === 0) return '';
  return benefit.msg.map((m) => element(m, 1).toUpperCase()).join('\n');
}

function hasWord(text: string, words: readonly string[]): boolean {
  return words.some((word) => text.includes(word));
}

function readCopays(feeding: readonly Row[], evidence: Record<string, string[]>): EligibilityFindings['copay'] {
  const office = feeding.filter((row) => row.eb01 === 'B' && row.benefit.serviceTypeCodes.some((c) => OFFICE_TYPES.has(c)));
  const labelled = (words: readonly string[]) => office.filter((row) => hasWord(row.messages, words));

  const specialist = pickAmount(labelled(SPECIALIST_WORDS), 'copay.specialist', evidence, true).cents;
  const labelledPrimary = pickAmount(labelled(PRIMARY_WORDS), 'copay.primaryCare', evidence, true);
  let primaryCare = labelledPrimary.cents;
  if (!labelledPrimary.found) {
    // A payer that sends one office copay without saying whose it is means the ordinary office visit.
    const unlabelled = office.filter((row) => {
      const text = row.messages;
      return !hasWord(text, PRIMARY_WORDS) && !hasWord(text, SPECIALIST_WORDS);
    });
    if (unlabelled.length === 1) primaryCare = pickAmount(unlabelled, 'copay.primaryCare', evidence, true).cents;
  }
  return { specialist, primaryCare };
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
  const rows = feeding.filter((row) => row.eb01 === 'A' && row.isIndividual && readPercent(element(row.benefit.eb, 8)) !== null);
  const winner = best(rows);
  if (!winner) return null;
  evidence.coinsurance = [winner.benefit.eb.raw];
  return readPercent(element(winner.benefit.eb, 8));
}

/** CCYYMMDD to YYYY-MM-DD, null unless a real calendar date. */
function readDate(value: string | undefined): string | null {
  if (!value || value.length !== 8 || !isDigits(value)) return null;
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(4, 6));
  const day = Number(value.slice(6, 8));
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return null;
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

function findCoverageDate(dtps: readonly Segment[], bound: 'start' | 'end', evidence: Record<string, string[]>): string | null {
  for (const tier of bound === 'start' ? START_TIERS : END_TIERS) {
    for (const dtp of dtps) {
      const format = element(dtp, 2);
      if (!tier.qualifiers.includes(element(dtp, 1)) || !tier.formats.includes(format)) continue;
      const value = element(dtp, 3);
      const part = format === 'RD8' ? value.split('-')[bound === 'start' ? 0 : 1] : value;
      if (bound === 'end' && part === OPEN_END) return null;
      const date = readDate(part);
      if (date) {
        evidence[bound === 'start' ? 'coverageStart' : 'coverageEnd'] = [dtp.raw];
        return date;
      }
    }
  }
  return null;
}

function readStatus(rows: readonly Row[], dateOfService: string, start: string | null, end: string | null, evidence: Record<string, string[]>): EligibilityFindings['status'] {
  const statusRows = rows.filter((row) => STATUS_CODES.has(row.eb01));
  if (statusRows.length === 0) return 'unknown';
  const onPlan = statusRows.filter((row) => row.benefit.serviceTypeCodes.includes('30'));
  const considered = onPlan.length > 0 ? onPlan : statusRows;
  const inRange = (start === null || start <= dateOfService) && (end === null || dateOfService <= end);
  const active = considered.filter((row) => ACTIVE_CODES.has(row.eb01));
  if (active.length > 0 && inRange) {
    evidence.status = active.map((row) => row.benefit.eb.raw);
    return 'active';
  }
  evidence.status = considered.map((row) => row.benefit.eb.raw);
  return 'inactive';
}

function readMemberName(nm1: Segment | null, evidence: Record<string, string[]>): string | null {
  const name = [element(nm1, 4), element(nm1, 3)].filter((part) => part !== '').join(' ');
  return note(evidence, 'memberName', nm1, nonEmpty(name));
}

/** REF lookups use the patient's 2100 loop, then 2100C for a dependent; never a 2110 REF. */
function findRef(loops: readonly (readonly Segment[])[], sources: readonly [string, number][], field: string, evidence: Record<string, string[]>): string | null {
  for (const [qualifier, position] of sources) {
    for (const loop of loops) {
      const ref = loop.find((s) => s.id === 'REF' && element(s, 1) === qualifier && element(s, position) !== '');
      if (ref) {
        evidence[field] = [ref.raw];
        return element(ref, position);
      }
    }
  }
  return null;
}

function readPlanName(feeding: readonly Row[], refLoops: readonly (readonly Segment[])[], evidence: Record<string, string[]>): string | null {
  const row = feeding.find((r) => ACTIVE_CODES.has(r.eb01) && r.benefit.serviceTypeCodes.includes('30') && element(r.benefit.eb, 5) !== '');
  if (row) {
    evidence.planName = [row.benefit.eb.raw];
    return element(row.benefit.eb, 5);
  }
  return findRef(refLoops, [['18', 3], ['6P', 3]], 'planName', evidence);
}

function readPriorAuth(feeding: readonly Row[], requested: string, component: string, evidence: Record<string, string[]>): Pick<EligibilityFindings, 'priorAuthRequired' | 'priorAuthCodes'> {
  const authRows = feeding.filter((row) => element(row.benefit.eb, 11) === 'Y');
  const requiring = authRows.filter((row) => ACTIVE_CODES.has(row.eb01) && (row.benefit.serviceTypeCodes.includes(requested) || row.benefit.serviceTypeCodes.includes('30')));
  if (requiring.length > 0) evidence.priorAuthRequired = requiring.map((row) => row.benefit.eb.raw);

  const codes: string[] = [];
  const add = (code: string) => {
    if (code !== '' && !codes.includes(code)) codes.push(code);
  };
  for (const row of authRows) {
    for (const code of row.benefit.serviceTypeCodes) add(code);
    // EB13 is a composite: EB13-1 qualifier (HC, AD, ...), EB13-2 the procedure code, then modifiers.
    add(element(row.benefit.eb, 13).split(component)[1] ?? '');
  }
  if (codes.length > 0) evidence.priorAuthCodes = authRows.map((row) => row.benefit.eb.raw);
  return { priorAuthRequired: requiring.length > 0, priorAuthCodes: codes };
}

function readNetwork(feeding: readonly Row[], evidence: Record<string, string[]>): EligibilityFindings['network'] {
  const messages = feeding.flatMap((row) => row.benefit.msg);
  if (messages.length === 0) return 'UNKNOWN';
  const text = (m: Segment) => element(m, 1);
  const out = messages.filter((m) => OUT_OF_NETWORK.test(text(m)));
  if (out.length > 0) {
    evidence.network = out.map((m) => m.raw);
    return 'OUT';
  }
  const inNetwork = messages.filter((m) => IN_NETWORK.test(text(m)));
  if (inNetwork.length > 0) {
    evidence.network = inNetwork.map((m) => m.raw);
    return 'IN';
  }
  return 'UNKNOWN';
}
