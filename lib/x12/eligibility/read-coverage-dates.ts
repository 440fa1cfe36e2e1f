// Coverage start and end from DTP segments: the patient's 2100C/D and the 2110 rows that feed fields. Each end
// has tiers of qualifiers in preference order; an open end (99991231) is no end.
import type { BenefitRow } from './benefit-row';
import { element } from '../element';
import type { Loop2000 } from '../read-271';
import type { Segment } from '../read-interchange';
import type { Sourced } from './sourced';

type DateTier = { qualifiers: readonly string[]; formats: readonly string[] };
// DTP01: 356/357 eligibility begin/end, 346/347 plan begin/end, 291 plan, 307 eligibility. DTP02: D8 one date
// (CCYYMMDD), RD8 a range (CCYYMMDD-CCYYMMDD).
const START_TIERS: readonly DateTier[] = [
  { qualifiers: ['356'], formats: ['D8', 'RD8'] },
  { qualifiers: ['346'], formats: ['D8', 'RD8'] },
  { qualifiers: ['291', '307'], formats: ['RD8'] },
  { qualifiers: ['291', '307'], formats: ['D8'] },
];
const END_TIERS: readonly DateTier[] = [
  { qualifiers: ['357'], formats: ['D8', 'RD8'] },
  { qualifiers: ['347'], formats: ['D8', 'RD8'] },
  { qualifiers: ['291', '307'], formats: ['RD8'] },
];
const OPEN_END = '99991231';

type CoverageDate = Sourced<string | null>;

/** YYYY-MM-DD dates, each with the DTP it came from; null when no DTP gives a real calendar date. */
export function readCoverageDates(
  patient: Loop2000 | null,
  feeding: readonly BenefitRow[],
): { start: CoverageDate; end: CoverageDate } {
  const dtps: Segment[] = [];
  for (const segment of patient?.loop2100 ?? []) if (segment.id === 'DTP') dtps.push(segment);
  for (const row of feeding) for (const dtp of row.benefit.dtp) dtps.push(dtp);
  // One pass, each DTP's elements read once: the winner is the first DTP, in file order, of the best tier that
  // gives a date (or, for the end, an open end), as a search tier by tier would find it.
  const start = new DateChoice(START_TIERS, 'start');
  const end = new DateChoice(END_TIERS, 'end');
  for (const dtp of dtps) {
    const qualifier = element(dtp, 1);
    const format = element(dtp, 2);
    const value = element(dtp, 3);
    start.consider(dtp, qualifier, format, value);
    end.consider(dtp, qualifier, format, value);
  }
  return { start: start.date, end: end.date };
}

/** The best date of one side so far, and the tier it came from. */
class DateChoice {
  date: CoverageDate = { value: null, sources: [] };
  private tier: number;

  constructor(
    private readonly tiers: readonly DateTier[],
    private readonly side: 'start' | 'end',
  ) {
    this.tier = tiers.length;
  }

  consider(dtp: Segment, qualifier: string, format: string, value: string): void {
    const tier = tierOf(this.tiers, qualifier, format);
    if (tier === -1 || tier >= this.tier) return;
    const part = format === 'RD8' ? rangePart(value, this.side) : value;
    if (this.side === 'end' && part === OPEN_END) {
      this.tier = tier;
      this.date = { value: null, sources: [] };
      return;
    }
    const date = readDate(part);
    if (date) {
      this.tier = tier;
      this.date = { value: date, sources: [dtp.raw] };
    }
  }
}

/** The first tier taking this DTP01 qualifier and DTP02 format, or -1. */
function tierOf(tiers: readonly DateTier[], qualifier: string, format: string): number {
  for (let i = 0; i < tiers.length; i++) {
    if (tiers[i]!.qualifiers.includes(qualifier) && tiers[i]!.formats.includes(format)) return i;
  }
  return -1;
}

/** One side of an RD8 range (CCYYMMDD-CCYYMMDD) as split('-') would give it, without splitting a long value whole. */
function rangePart(value: string, side: 'start' | 'end'): string | undefined {
  const dash = value.indexOf('-');
  if (side === 'start') return dash === -1 ? value : value.slice(0, dash);
  if (dash === -1) return undefined;
  const next = value.indexOf('-', dash + 1);
  return next === -1 ? value.slice(dash + 1) : value.slice(dash + 1, next);
}

/** CCYYMMDD to YYYY-MM-DD, null unless a real calendar date. Read digit by digit: no pattern, no Date object. */
function readDate(value: string | undefined): string | null {
  if (value === undefined || value.length !== 8) return null;
  for (let i = 0; i < 8; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return null;
  }
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 4, 6);
  const day = digitsAt(value, 6, 8);
  if (month < 1 || month > 12 || day < 1) return null;
  // Every month has 28 days; only a later day needs the calendar.
  if (day > 28 && day > daysInMonth(year, month)) return null;
  return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
}

/** The number the ASCII digits from `start` to `end` spell. */
function digitsAt(value: string, start: number, end: number): number {
  let number = 0;
  for (let i = start; i < end; i++) number = number * 10 + value.charCodeAt(i) - 48;
  return number;
}

/** February asks Date.UTC (which reads years 0-99 as 1900-1999), the other months have a fixed length. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
