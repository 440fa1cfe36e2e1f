// Money on the billing screens: integer cents from the API shown as dollars by the one shared formatter, and
// dollars typed by staff read back to cents digit by digit (lib/money), never through a float. Dates are the
// clinic's: see use-date-format.ts.
import { formatDollars } from '@/components/eligibility/format-dollars';
import { parseDollarsToCents } from '@/lib/money/dollars';

export { formatDollars };

/**
 * What staff typed as dollars ("125", "125.50", "$1,250.00") → integer cents, or null when it is not an amount
 * with at most two decimal places.
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
