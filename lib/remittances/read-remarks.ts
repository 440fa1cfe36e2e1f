// Remittance Advice Remark Codes (RARC) of each claim of each 835, which the reader's object (DECISIONS "Money in")
// leaves out: MOA03-07 (outpatient) and MIA05/20-23 (inpatient) at claim level, LQ*HE at service-line level. The
// denial work queue shows them beside the CARCs. Reads segments the envelope reader already split; pure.
import type { Interchange, Segment } from '../x12/read-interchange';

/**
 * One CLP's remark codes, as written: claim level, then one list per SVC in order; and `text`, the CLP loop's own
 * segments as written (CLP up to the next CLP, PLB or SE), each with its terminator.
 */
export type ClaimRemarks = { claim: string[]; lines: string[][]; text: string };

const MOA_REMARKS = [3, 4, 5, 6, 7];
const MIA_REMARKS = [5, 20, 21, 22, 23];

/** For each 835 of the interchange in file order, each CLP's remarks in file order. */
export function readRemarks(interchange: Interchange): ClaimRemarks[][] {
  return interchange.groups
    .flatMap((group) => group.transactions)
    .filter((transaction) => transaction.id === '835')
    .map((transaction) => remarksOf(transaction.segments, interchange.delimiters.segment));
}

function remarksOf(segments: readonly Segment[], terminator: string): ClaimRemarks[] {
  const reader = remarksReader(terminator);
  for (const segment of segments) reader.take(segment);
  return reader.finish();
}

/** One 835's remarks read a segment at a time (ST to SE, in order), for a caller that does not hold its segments. */
export function remarksReader(terminator: string): { take(segment: Segment): void; finish(): ClaimRemarks[] } {
  const claims: ClaimRemarks[] = [];
  let claim: ClaimRemarks | null = null;
  let line: string[] | null = null;
  // The open CLP loop's segments, joined into one flat string when the loop ends: appending segment by segment
  // would keep a rope of a few dozen bytes of nodes per segment, for every CLP of the 835 at once.
  let loop: string[] = [];
  const close = () => {
    if (claim) claim.text = loop.join(terminator) + terminator;
    claim = null;
    loop = [];
  };
  const push = (target: string[], code: string | undefined) => {
    if (code && !target.includes(code)) target.push(code);
  };
  const take = (segment: Segment) => {
    if (segment.id === 'PLB' || segment.id === 'SE' || segment.id === 'CLP') close();
    if (claim || segment.id === 'CLP') loop.push(segment.raw);
    switch (segment.id) {
      case 'CLP':
        claim = { claim: [], lines: [], text: '' };
        claims.push(claim);
        line = null;
        break;
      case 'SVC':
        if (!claim) break;
        line = [];
        claim.lines.push(line);
        break;
      case 'MOA':
        if (claim) for (const i of MOA_REMARKS) push(claim.claim, segment.elements[i]);
        break;
      case 'MIA':
        if (claim) for (const i of MIA_REMARKS) push(claim.claim, segment.elements[i]);
        break;
      case 'LQ':
        // LQ01 HE: a RARC (RX would be an NCPDP reject code, not a remark).
        if (segment.elements[1] === 'HE' && claim) push(line ?? claim.claim, segment.elements[2]);
        break;
      case 'PLB':
        line = null;
        break;
      default:
        break;
    }
  };
  const finish = () => {
    close();
    return claims;
  };
  return { take, finish };
}
