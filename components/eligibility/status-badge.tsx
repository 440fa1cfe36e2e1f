// The coverage verdict as staff read it: Active, Inactive, or Unknown (check again / call the payer).
import type { EligibilityStatus } from '@/lib/eligibility/eligibility-result';

const LABEL: Record<EligibilityStatus, string> = { active: 'Active', inactive: 'Inactive', unknown: 'Unknown' };

export function StatusBadge({ status }: { status: EligibilityStatus }) {
  return (
    <span className={`status-${status}`} data-status={status}>
      {LABEL[status]}
    </span>
  );
}
