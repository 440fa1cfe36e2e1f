// Calendar dates as whole days, so the scrub edits compare and subtract dates of service without a clock or a
// time zone: the caller's `today` and the claim's dates are both plain YYYY-MM-DD.

/** Days since 1970-01-01 of a real calendar date written YYYY-MM-DD; null for anything else ("2025-02-30"). */
export function dayNumber(date: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const parsed = new Date(ms);
  if (parsed.getUTCFullYear() !== year || parsed.getUTCMonth() !== month - 1 || parsed.getUTCDate() !== day) return null;
  return ms / 86_400_000;
}
