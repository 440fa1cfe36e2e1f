// Banking days of the Federal Reserve (ACH settles only on them): Monday to Friday except the Fed's holidays.
// A holiday on a Sunday is observed the Monday after; one on a Saturday is not moved (the Fed stays open the
// Friday before), so that Friday is a banking day. Days are "YYYY-MM-DD" strings, calendar arithmetic in UTC.
const DAY_MS = 24 * 60 * 60 * 1000;

const iso = (year: number, month: number, day: number) =>
  new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);

/** The `nth` (1-based) `weekday` (0 = Sunday) of a month; a negative `nth` counts from the month's end. */
function nthWeekday(year: number, month: number, weekday: number, nth: number): string {
  if (nth > 0) {
    const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    return iso(year, month, 1 + ((weekday - first + 7) % 7) + (nth - 1) * 7);
  }
  const lastDay = new Date(Date.UTC(year, month, 0));
  const back = (lastDay.getUTCDay() - weekday + 7) % 7;
  return iso(year, month, lastDay.getUTCDate() - back + (nth + 1) * 7);
}

/** A fixed-date holiday as the Fed observes it: Sunday moves to Monday, Saturday stays (not a banking day anyway). */
function observedFixed(year: number, month: number, day: number): string {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCDay() === 0 ? iso(year, month, day + 1) : iso(year, month, day);
}

/** The Federal Reserve's holidays of one year, as the days the banks are closed. */
export function federalReserveHolidays(year: number): Set<string> {
  return new Set([
    observedFixed(year, 1, 1), // New Year's Day
    nthWeekday(year, 1, 1, 3), // Birthday of Martin Luther King, Jr.
    nthWeekday(year, 2, 1, 3), // Washington's Birthday
    nthWeekday(year, 5, 1, -1), // Memorial Day
    observedFixed(year, 6, 19), // Juneteenth
    observedFixed(year, 7, 4), // Independence Day
    nthWeekday(year, 9, 1, 1), // Labor Day
    nthWeekday(year, 10, 1, 2), // Columbus Day
    observedFixed(year, 11, 11), // Veterans Day
    nthWeekday(year, 11, 4, 4), // Thanksgiving Day
    observedFixed(year, 12, 25), // Christmas Day
  ]);
}

export function isBankingDay(day: string): boolean {
  const weekday = new Date(`${day}T00:00:00.000Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return !federalReserveHolidays(Number(day.slice(0, 4))).has(day);
}

/** The `count`-th banking day after `day` (count ≥ 1); `day` itself need not be one. */
export function addBankingDays(day: string, count: number): string {
  let time = Date.parse(`${day}T00:00:00.000Z`);
  let left = count;
  while (left > 0) {
    time += DAY_MS;
    if (isBankingDay(new Date(time).toISOString().slice(0, 10))) left--;
  }
  return new Date(time).toISOString().slice(0, 10);
}
