// How the billing screens write dates and money. Money: integer cents from the API, shown as dollars by the one
// shared formatter. Dates: a `YYYY-MM-DD` calendar date is shown as that day wherever the browser is (it is a
// day, not an instant); an instant (ISO-8601 with offset) is shown in the clinic's time zone when the screen
// knows it, else the browser's. Every billing screen formats through here, so switching all of them to the
// clinic's zone (DECISIONS "Staff app") is one change.
import { formatDollars } from '@/components/eligibility/format-dollars';
import { parseDollarsToCents } from '@/lib/money/dollars';

export { formatDollars };

const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-11-23" → "Nov 23, 2026"; an ISO instant → its day in `timeZone`; null or empty → a dash. */
export function formatDate(value: string | null | undefined, timeZone?: string): string {
  if (!value) return '—';
  const day = CALENDAR_DAY.exec(value);
  if (day) {
    const at = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
    return at.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
  }
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  return at.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone });
}

/** An ISO instant → "Nov 23, 2026, 2:05 PM" in `timeZone` (the browser's when not given). */
export function formatDateTime(value: string | null | undefined, timeZone?: string): string {
  if (!value) return '—';
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  return at.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone });
}

/** Today as `YYYY-MM-DD` in `timeZone` (the browser's when not given): the default date of service. */
export function todayIn(timeZone?: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Date().toLocaleDateString('en-CA', { timeZone });
}

/**
 * What staff typed as dollars ("125", "125.50", "$1,250.00") → integer cents, or null when it is not an amount
 * with at most two decimal places. Converted digit by digit (lib/money), never through a float.
 */
export function parseDollarInput(text: string): number | null {
  const cleaned = text.trim().replace(/^\$/, '').replaceAll(',', '');
  if (cleaned === '') return null;
  try {
    return parseDollarsToCents(cleaned);
  } catch {
    return null;
  }
}

/** Cents → the dollars an input shows for editing ("125.50"), without the $ and grouping. */
export function centsToDollarInput(cents: number): string {
  return formatDollars(cents).replace('$', '').replaceAll(',', '');
}
