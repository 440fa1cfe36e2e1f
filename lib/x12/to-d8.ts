// A YYYY-MM-DD date as X12 writes it with format qualifier D8 (CCYYMMDD). Shape only: whether the date exists on
// the calendar or makes sense for the field is the caller's rule.

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Throws RangeError naming `field` when `value` is not YYYY-MM-DD. */
export function toD8(value: string, field: string): string {
  const match = ISO_DATE.exec(value);
  if (!match) throw new RangeError(`${field} must be YYYY-MM-DD`);
  return `${match[1]}${match[2]}${match[3]}`;
}
