// The clinic's calendar: "today", the day an instant falls on, and the instants a day spans, in the clinic's IANA
// time zone (DECISIONS "Staff app"). Pure (the caller passes "now"), built on Intl alone, so the server, the
// demo seed and the browser all count days the same way. Days are not always 24 hours: a DST change makes them
// 23 or 25, which is why a day's bounds are computed from its two midnights, never by adding 24 hours.

/** The schema's default zone (Clinic.timeZone), for a clinic row that is somehow missing. */
export const DEFAULT_TIME_ZONE = 'America/New_York';

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** True for a time zone name Intl knows (IANA names such as America/Los_Angeles, and UTC). */
export function isValidTimeZone(name: string): boolean {
  if (!name || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

type WallTime = { year: number; month: number; day: number; hour: number; minute: number; second: number };

function wallTime(instant: Date, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of partsFormatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The clinic's calendar date (YYYY-MM-DD) at `instant`. */
export function clinicDateOf(instant: Date, timeZone: string): string {
  const w = wallTime(instant, timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/** The clinic's "today" at `now`. */
export const clinicToday = (now: Date, timeZone: string): string => clinicDateOf(now, timeZone);

/** The clinic's wall-clock time (HH:MM) at `instant`. */
export function clinicTimeOf(instant: Date, timeZone: string): string {
  const w = wallTime(instant, timeZone);
  return `${pad(w.hour)}:${pad(w.minute)}`;
}

/** Milliseconds the zone's wall clock is ahead of UTC at `instant` (negative west of Greenwich). */
function offsetAt(instantMs: number, timeZone: string): number {
  const w = wallTime(new Date(instantMs), timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instantMs / 1000) * 1000;
}

function parseDate(date: string): [number, number, number] {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new RangeError(`Not a YYYY-MM-DD date: ${date}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/**
 * The instant the clinic's wall clock reads `time` (HH:MM) on `date`. A time skipped by a DST change (02:30 on
 * a spring-forward day) moves forward by the gap (it reads 03:30), as Temporal's "compatible" rule does, so a
 * skipped midnight gives the day's first instant; a time that happens twice (01:30 on a fall-back day) resolves
 * to the first of the two.
 */
export function clinicInstant(date: string, time: string, timeZone: string): Date {
  const [year, month, day] = parseDate(date);
  const hm = /^(\d{2}):(\d{2})$/.exec(time);
  if (!hm) throw new RangeError(`Not an HH:MM time: ${time}`);
  const guess = Date.UTC(year, month - 1, day, Number(hm[1]), Number(hm[2]));
  const first = guess - offsetAt(guess, timeZone);
  const firstOffset = offsetAt(first, timeZone);
  if (first + firstOffset === guess) {
    // The wall time exists; when it exists twice, the earlier offset (before a fall-back) gives the first one.
    const earlier = guess - offsetAt(first - 3 * 3_600_000, timeZone);
    return new Date(earlier < first && earlier + offsetAt(earlier, timeZone) === guess ? earlier : first);
  }
  const second = guess - firstOffset;
  if (second + offsetAt(second, timeZone) === guess) return new Date(second);
  // In a gap: neither offset reads back the wall time; the later candidate is the first instant after it.
  return new Date(Math.max(first, second));
}

/** The date after `date` (calendar arithmetic, no time zone involved). */
export function nextDate(date: string): string {
  const [year, month, day] = parseDate(date);
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

/** The calendar date before `date` (YYYY-MM-DD). */
export function previousDate(date: string): string {
  const [year, month, day] = parseDate(date);
  return new Date(Date.UTC(year, month - 1, day - 1)).toISOString().slice(0, 10);
}

/** The instants of the clinic's day `date`: [from, to), from its midnight to the next (23, 24 or 25 hours). */
export function clinicDayBounds(date: string, timeZone: string): { from: Date; to: Date } {
  return { from: clinicInstant(date, '00:00', timeZone), to: clinicInstant(nextDate(date), '00:00', timeZone) };
}
