// Dates and times as the X12 builders write them: an instant as CCYYMMDD and HHMM in UTC (the envelope's clock),
// and a service period as a D8 date or, when it spans days, an RD8 range.
import { toD8 } from './to-d8';

/** CCYYMMDD of the instant in UTC. */
export function ccyymmdd(at: Date): string {
  return `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}`;
}

/** HHMM of the instant in UTC. */
export function hhmm(at: Date): string {
  return `${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}`;
}

/**
 * DTP02 and DTP03 for a period of YYYY-MM-DD dates: D8 for one day (`to` absent or equal), RD8 CCYYMMDD-CCYYMMDD
 * otherwise. Throws RangeError naming `field` for a malformed date or a period that ends before it starts.
 */
export function dateOrPeriod(period: { from: string; to?: string }, field: string): [string, string] {
  const from = toD8(period.from, `${field}.from`);
  if (period.to === undefined || period.to === period.from) return ['D8', from];
  const to = toD8(period.to, `${field}.to`);
  if (to < from) throw new RangeError(`${field}.to must not be before ${field}.from`);
  return ['RD8', `${from}-${to}`];
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
