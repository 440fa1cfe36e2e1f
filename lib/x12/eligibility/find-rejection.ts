// The verdict's first half: whether the payer rejected the inquiry itself (an AAA), and why, in the 5010 271
// code lists' words. A rejection makes the status `unknown` whatever the benefit rows say.
import { element } from '../element';
import type { Loop2000 } from '../read-271';
import type { Segment } from '../read-interchange';
import { FOLLOW_UP_ACTIONS, REJECT_REASONS } from '../reject-reason-codes';
import type { Sourced } from './sourced';

type RejectionLoop = '2100A' | '2100B' | '2100C' | '2100D';

export type Rejection = {
  reasonCode: string;
  reason: string;
  followUpCode: string | null;
  followUp: string | null;
  loop: RejectionLoop;
};

/** The first AAA in 2000A/2100A..2100D (never one inside 2110, which answers one EQ only). */
export function findRejection(loops: readonly Loop2000[]): Sourced<Rejection | null> {
  for (const loop of loops) {
    const rejection = findRejectionIn(loop.segments, loop) ?? findRejectionIn(loop.loop2100, loop);
    if (rejection) return rejection;
  }
  return { value: null, sources: [] };
}

function findRejectionIn(segments: readonly Segment[], loop: Loop2000): Sourced<Rejection> | null {
  for (const segment of segments) {
    if (segment.id !== 'AAA') continue;
    const valid = element(segment, 1);
    if (valid !== 'Y' && valid !== 'N') continue;
    const reasonCode = element(segment, 3);
    const followUpCode = element(segment, 4) || null;
    const reason =
      REJECT_REASONS[reasonCode] ?? `Reject reason code ${reasonCode || '(none)'} (not in the 5010 271 code list)`;
    const followUp = followUpCode && (FOLLOW_UP_ACTIONS[followUpCode] ?? `Follow-up action code ${followUpCode}`);
    const rejection: Rejection = { reasonCode, reason, followUpCode, followUp, loop: `2100${loop.level}` };
    return { value: rejection, sources: [segment.raw] };
  }
  return null;
}
