// What on an eligibility answer needs the front desk before the visit: coverage not active or not known, a
// provider out of network, prior authorization, or a check of something other than the coverage on file.
// The roster counts and filters by it; each reason has its next step in words.
import type { EligibilityFields } from '@/lib/eligibility/eligibility-result';
import { serviceTypeList } from './service-type-name';

export type AttentionReason = 'inactive' | 'unknown' | 'out-of-network' | 'prior-auth' | 'coverage-mismatch';

export const ATTENTION_LABEL: Record<AttentionReason, string> = {
  inactive: 'Inactive',
  unknown: 'Unknown',
  'out-of-network': 'Out of network',
  'prior-auth': 'Prior authorization',
  'coverage-mismatch': 'Not the coverage on file',
};

export function attentionReasons(fields: EligibilityFields | undefined): AttentionReason[] {
  if (!fields) return [];
  const reasons: AttentionReason[] = [];
  if (fields.status === 'inactive') reasons.push('inactive');
  if (fields.status === 'unknown') reasons.push('unknown');
  if (fields.status === 'active' && fields.network === 'OUT') reasons.push('out-of-network');
  if (fields.priorAuthRequired || fields.priorAuthCodes.length > 0) reasons.push('prior-auth');
  if (fields.coverageOnFile === 'mismatch') reasons.push('coverage-mismatch');
  return reasons;
}

/** The next step for an active answer's flags, in words with the codes named; unknown and inactive have their own. */
export function outOfNetworkStep(): string {
  return (
    'The payer says this provider is out of network for the member. Tell the patient before the visit that ' +
    'out-of-network costs may apply, or offer an in-network provider.'
  );
}

export function priorAuthStep(fields: Pick<EligibilityFields, 'priorAuthCodes'>): string {
  const codes = fields.priorAuthCodes;
  const what = codes.length ? serviceTypeList(codes) : 'this service';
  return (
    `Prior authorization is required for ${what}. Request it from the payer before the visit and note the ` +
    'authorization number on the appointment.'
  );
}

export function coverageMismatchStep(): string {
  return (
    "The member id or payer checked is not the patient's coverage on file. Confirm the card, then update the " +
    'coverage on file (a claim needs a check of the coverage on file).'
  );
}
