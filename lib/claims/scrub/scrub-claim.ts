// Runs every scrub edit over a claim and reports every failure at once, so a biller fixes them in one pass.
// Sending nothing when anything fails (422 SCRUB_BLOCKED) is the caller's decision, not this function's.
import { dayNumber } from './day-number';
import { SCRUB_EDITS, type ScrubInput } from './scrub-edits';

/** One failing field: `edit` is the id of the edit it fails, `message` that edit's message. */
export type ScrubIssue = { path: string; message: string; edit: string };

/** Every issue, in the order of SCRUB_EDITS; none when the claim may be sent. Throws RangeError on a bad `today`. */
export function scrubClaim(input: ScrubInput): ScrubIssue[] {
  if (dayNumber(input.today) === null) throw new RangeError('today must be a YYYY-MM-DD date');
  const issues: ScrubIssue[] = [];
  for (const edit of SCRUB_EDITS) {
    for (const path of edit.check(input)) issues.push({ path, message: edit.message, edit: edit.id });
  }
  return issues;
}
