// In or out of network, from the free text of MSG segments: payers say it in words, not codes. Out of network
// anywhere wins over in network; no MSG at all is UNKNOWN.
import type { BenefitRow } from './benefit-row';
import { element } from '../element';
import type { Segment } from '../read-interchange';
import type { Sourced } from './sourced';

export type Network = 'IN' | 'OUT' | 'UNKNOWN';

// Whole words, case-insensitive, any run of spaces between words (payers pad free text).
const OUT_OF_NETWORK =
  /(?<![A-Z0-9])(?:OUT +OF +NETWORK|OUT-OF-NETWORK|OUT +NETWORK|NOT +IN +NETWORK|NON-PARTICIPATING|NON +PARTICIPATING|NON +PAR)(?![A-Z0-9])/i;
const IN_NETWORK = /(?<![A-Z0-9])(?:IN +NETWORK|IN-NETWORK|PARTICIPATING)(?![A-Z0-9])/i;

/** MSGs of feeding rows only: a MSG on a row for another service type (or EB12 N) speaks of another benefit. */
export function readNetwork(feeding: readonly BenefitRow[]): Sourced<Network> {
  const messages: Segment[] = [];
  for (const row of feeding) for (const message of row.benefit.msg) messages.push(message);
  if (messages.length === 0) return { value: 'UNKNOWN', sources: [] };
  const out = saying(messages, OUT_OF_NETWORK);
  if (out.length > 0) return { value: 'OUT', sources: out };
  const inNetwork = saying(messages, IN_NETWORK);
  if (inNetwork.length > 0) return { value: 'IN', sources: inNetwork };
  return { value: 'UNKNOWN', sources: [] };
}

/** The raw text of the MSGs whose MSG01 matches `words`. */
function saying(messages: readonly Segment[], words: RegExp): string[] {
  const sources: string[] = [];
  for (const message of messages) if (words.test(element(message, 1))) sources.push(message.raw);
  return sources;
}
