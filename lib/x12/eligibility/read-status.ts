// The verdict's second half, for a 271 that rejected nothing: active or inactive on the date of service, from
// the status rows (EB01 1-8) and the coverage dates.
import type { BenefitRow } from './benefit-row';
import type { Sourced } from './sourced';

export type Status = 'active' | 'inactive' | 'unknown';

/**
 * Active when the date of service is within the coverage dates (either may be open) and a deciding status row
 * is active; inactive otherwise; unknown without any status row. Status rows on the plan (EB03 30) decide when
 * there are any, otherwise every status row does. `dateOfService`, `start` and `end` are YYYY-MM-DD.
 */
export function readStatus(
  rows: readonly BenefitRow[],
  dateOfService: string,
  start: string | null,
  end: string | null,
): Sourced<Status> {
  const statusRows: BenefitRow[] = [];
  const onPlan: BenefitRow[] = [];
  for (const row of rows) {
    if (!row.isStatus) continue;
    statusRows.push(row);
    if (row.hasPlanType) onPlan.push(row);
  }
  if (statusRows.length === 0) return { value: 'unknown', sources: [] };
  const deciding = onPlan.length > 0 ? onPlan : statusRows;
  const inRange = (start === null || start <= dateOfService) && (end === null || dateOfService <= end);
  if (inRange) {
    const active: string[] = [];
    for (const row of deciding) if (row.isActive) active.push(row.eb.raw);
    if (active.length > 0) return { value: 'active', sources: active };
  }
  const considered: string[] = [];
  for (const row of deciding) considered.push(row.eb.raw);
  return { value: 'inactive', sources: considered };
}
