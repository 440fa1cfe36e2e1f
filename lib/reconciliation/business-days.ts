// Business days for the reassociation wait: Monday to Friday, in UTC day strings. Bank holidays are not known
// here, so a deposit across a holiday can be reported one day early; the variance goes away by itself once the
// ERA arrives and the day is reconciled again.
const DAY_MS = 24 * 60 * 60 * 1000;

/** `day` (YYYY-MM-DD) plus `count` business days; a weekend start counts from the next Monday. */
export function addBusinessDays(day: string, count: number): string {
  let time = Date.parse(`${day}T00:00:00.000Z`);
  let left = count;
  while (left > 0) {
    time += DAY_MS;
    const weekday = new Date(time).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left--;
  }
  return new Date(time).toISOString().slice(0, 10);
}
