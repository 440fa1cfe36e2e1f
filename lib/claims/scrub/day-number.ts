// Calendar dates as whole days, so the scrub edits compare and subtract dates of service without a clock or a
// time zone: the caller's `today` and the claim's dates are both plain YYYY-MM-DD.

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days since 1970-01-01 of a real calendar date written YYYY-MM-DD; null for anything else ("2025-02-30"). */
export function dayNumber(date: string): number | null {
  const match = ISO_DATE.exec(date);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const isLeapYear = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const monthDays = month === 2 && isLeapYear ? 29 : DAYS_IN_MONTH[month - 1];
  if (monthDays === undefined || day < 1 || day > monthDays) return null;
  return Date.UTC(year, month - 1, day) / 86_400_000;
}
