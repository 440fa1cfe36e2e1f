// Codes the billing APIs send, in the words staff read: claim states, timeline events, X12 document kinds,
// 835 claim status codes (CLP02), adjustment groups (CAS01) and reconciliation variance kinds. The code itself
// stays beside the words on screen where staff may need to quote it to a payer.

export const CLAIM_STATUS_WORDS: Record<string, string> = {
  draft: 'Draft',
  sending: 'Sending',
  submitted: 'Submitted',
  accepted: 'Accepted by payer',
  rejected: 'Rejected',
  paid: 'Paid',
  partially_paid: 'Partially paid',
  denied: 'Denied',
  appealed: 'Appealed',
  closed: 'Closed',
};

export const CLAIM_STATUSES = Object.keys(CLAIM_STATUS_WORDS);

export function claimStatusWords(status: string | null | undefined): string {
  if (!status) return '—';
  return CLAIM_STATUS_WORDS[status] ?? status;
}

/** X12 document kinds, as on the timeline and the transmissions list. */
export const DOCUMENT_WORDS: Record<string, string> = {
  '837P': 'Claim sent (837P)',
  '999': 'File acknowledgement (999)',
  '277CA': 'Payer claim acknowledgement (277CA)',
  '276': 'Status request (276)',
  '277': 'Claim status from the payer (277)',
  '835': 'Remittance (835)',
};

const TIMELINE_WORDS: Record<string, string> = {
  created: 'Draft created',
  updated: 'Draft edited',
  submitted: 'Sent to the payer through the clearinghouse (837P)',
  sending: 'Claim recorded and being sent to the clearinghouse (837P)',
  'send-failed': 'The clearinghouse could not be reached; nothing was received, back to draft',
  'answer-unreadable': "The clearinghouse's answer could not be read; waiting for a person to decide",
  'send-unconfirmed': 'The clearinghouse has no record of this send; waiting for a person to decide',
  '999': 'Clearinghouse file acknowledgement (999)',
  '277CA': 'Payer claim acknowledgement (277CA)',
  '276': 'Status request sent (276)',
  '277': 'Claim status from the payer (277)',
  status: 'Claim status from the payer (277)',
  payment: 'Payment posted from a remittance (835)',
  remittance: 'Remittance posted (835)',
  reversal: 'Payment reversed by the payer (835)',
  appeal: 'Appeal filed',
  write_off: 'Written off',
  closed: 'Claim closed',
  scrub: 'Checked for problems',
  replaced: 'Closed: the payer accepted its replacement',
  voided: 'Closed: the payer accepted its void',
  'void-accepted': 'Void accepted by the payer; closed',
};

/** What an event was; a remittance's CLP that denied the claim paid nothing, so it is not called a payment. */
export function timelineWords(kind: string, toStatus?: string | null): string {
  if (kind === 'payment' && toStatus === 'denied') return 'Denied by the payer in a remittance (835)';
  return TIMELINE_WORDS[kind] ?? kind.replaceAll('_', ' ');
}

/** CAS01: who the adjusted amount falls to. */
const ADJUSTMENT_GROUP: Record<string, string> = {
  CO: 'Contractual (write off)',
  PR: 'Patient responsibility',
  OA: 'Other adjustment',
  PI: 'Payer reduction',
  CR: 'Correction or reversal',
};

export function adjustmentGroupWords(group: string): string {
  return ADJUSTMENT_GROUP[group] ?? group;
}

/** A claim's next action (the denial queue's filter and the claim page). */
export const NEXT_ACTION_WORDS: Record<string, string> = {
  write_off: 'Write off',
  correct_and_resubmit: 'Correct and resubmit',
  appeal: 'Appeal',
  bill_secondary: 'Bill the secondary payer',
  bill_patient: 'Bill the patient',
  none: 'Nothing to do',
};

export function nextActionWords(action: string): string {
  return NEXT_ACTION_WORDS[action] ?? action.replaceAll('_', ' ');
}

const VARIANCE_KIND: Record<string, string> = {
  ledger_mismatch: "The day's ledger, bank (FBO) and rail totals disagree",
  era_without_deposit: 'A remittance arrived but no matching deposit was found',
  deposit_without_era: 'A deposit arrived but no remittance matched it within 3 business days',
  amount_mismatch: 'A remittance and its deposit disagree on the amount',
  unmatched_claim: 'A remittance paid a claim that was never sent or is not ours: not posted',
};

export function varianceKindWords(kind: string): string {
  return VARIANCE_KIND[kind] ?? kind.replaceAll('_', ' ');
}

const INSTRUCTION_STATUS: Record<string, string> = {
  DRAFT: 'Draft (not signed)',
  SIGNED: 'Signed, ready to execute',
  DISBURSED: 'Disbursed',
  CANCELLED: 'Cancelled',
  EXPIRED: 'Expired',
  RETURNED: 'Returned by the bank',
};

export function instructionStatusWords(status: string): string {
  return INSTRUCTION_STATUS[status] ?? status;
}
