// A 277CA or 277 claim status in words for the claim's timeline and statusReason: what X12's code lists call the
// category and the status code (lib/x12/claim-status-codes.ts), whose information it is about, the payer's own
// message when it sent one, and the codes as sent last, in brackets, for a call to the payer. A code not in the
// tables is shown as its code.
import { describeStatusCategory, describeStatusCode, describeStatusEntity } from '../x12/claim-status-codes';
import type { ClaimStatus277 } from '../x12/read-277';

export function describe277Status(status: ClaimStatus277): string {
  const codes = [status.statusCategory, status.statusCode, status.entityCode].filter(Boolean).join(':');
  // "Acknowledgement/Rejected for invalid information" reads as "Rejected for invalid information".
  const category = describeStatusCategory(status.statusCategory)?.replace(/^Acknowledgement\//, '') ?? null;
  const code = describeStatusCode(status.statusCode)?.replace(/\.$/, '') ?? null;
  const entity = status.entityCode ? describeStatusEntity(status.entityCode) : null;
  const words = [category, code ? `${code}${entity ? ` (${entity})` : ''}` : null].filter(Boolean).join(': ');
  const message = status.message ? ` · payer's message: ${status.message}` : '';
  return words ? `${words}${message} [STC ${codes}]` : `STC ${codes}${message}`;
}
