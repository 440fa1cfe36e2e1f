// A 277CA or 277 claim status in words for the claim's timeline and statusReason: the codes as sent, then what
// X12's code lists call them (lib/x12/claim-status-codes.ts), then the payer's own message when it sent one.
import { describeStatusCategory, describeStatusCode } from '../x12/claim-status-codes';
import type { ClaimStatus277 } from '../x12/read-277';

export function describe277Status(status: ClaimStatus277): string {
  const codes = [status.statusCategory, status.statusCode, status.entityCode].filter(Boolean).join(':');
  const words = [describeStatusCategory(status.statusCategory), describeStatusCode(status.statusCode)].filter(Boolean);
  const message = status.message ? ` (${status.message})` : '';
  return `${codes}${words.length ? ` ${words.join('; ')}` : ''}${message}`;
}
