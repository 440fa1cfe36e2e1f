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
  return { start: findDate(dtps, START_TIERS, 'start'), end: findDate(dtps, END_TIERS, 'end') };
}

function findDate(dtps: readonly Segment[], tiers: readonly DateTier[], side: 'start' | 'end'): CoverageDate {
  for (const tier of tiers) {
    for (const dtp of dtps) {
      const format = element(dtp, 2);
      if (!tier.qualifiers.includes(element(dtp, 1)) || !tier.formats.includes(format)) continue;
      const value = element(dtp, 3);
      const part = format === 'RD8' ? rangePart(value, side) : value;
      if (side === 'end' && part === OPEN_END) return { value: null, sources: [] };
      const date = readDate(part);
      if (date) return { value: date, sources: [dtp.raw] };
    }
  }
  return { value: null, sources: [] };
}

/** One side of an RD8 range (CCYYMMDD-CCYYMMDD) as split('-') would give it, without splitting a long value whole. */
function rangePart(value: string, side: 'start' | 'end'): string | undefined {
  const dash = value.indexOf('-');
  if (side === 'start') return dash === -1 ? value : value.slice(0, dash);
  if (dash === -1) return undefined;
  const next = value.indexOf('-', dash + 1);
  return next === -1 ? value.slice(dash + 1) : value.slice(dash + 1, next);
}

/** CCYYMMDD to YYYY-MM-DD, null unless a real calendar date. */
function readDate(value: string | undefined): string | null {
  if (!value || !/^\d{8}$/.test(value)) return null;
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(4, 6));
  const day = Number(value.slice(6, 8));
  if (month < 1 || month > 12 || day < 1) return null;
  // Every month has 28 days; only a later day needs the calendar.
  if (day > 28 && day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
}
