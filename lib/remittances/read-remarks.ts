// Remittance Advice Remark Codes (RARC) of each claim of each 835, which the reader's object (DECISIONS "Money in")
// leaves out: MOA03-07 (outpatient) and MIA05/20-23 (inpatient) at claim level, LQ*HE at service-line level. The
// denial work queue shows them beside the CARCs. Reads the segments the 835 reader walks; pure.
import { claimsOf, type Scanned835 } from '../x12/read-835';
import type { Segment } from '../x12/read-interchange';
import type { ClaimPayment } from '../x12/read-remittance';
import type { X12Text } from '../x12/x12-text';

/**
 * One CLP's remark codes, as written: claim level, then one list per SVC in order; and `text`, the CLP loop's own
 * segments as written (CLP up to the next CLP, PLB or SE), each with its terminator.
 */
export type ClaimRemarks = { claim: string[]; lines: string[][]; text: string };

const MOA_REMARKS = [3, 4, 5, 6, 7];
const MIA_REMARKS = [5, 20, 21, 22, 23];

/**
 * The claims of one scanned 835 (claimsOf), each with its remarks, read again from the text a claim at a time:
 * a posting holds one chunk of them, never the 835's every claim.
 */
export function* claimsWithRemarks(
  text: X12Text,
  scanned: Pick<Scanned835, 'start' | 'delimiters'>,
): Generator<{ claim: ClaimPayment; remarks: ClaimRemarks }> {
  const closed: ClaimRemarks[] = [];
  const remarks = remarksReader(scanned.delimiters.segment, (claim) => closed.push(claim));
  // Both readers close a claim at the same segment (the next CLP, a PLB, the SE), and the remarks reader is shown
  // it first, so each claim's remarks are waiting when the claim comes out.
  for (const claim of claimsOf(text, scanned, (segment) => remarks.take(segment))) {
    yield { claim, remarks: closed.shift()! };
  }
}

/**
 * One 835's remarks read a segment at a time (ST to SE, in order), for a caller that does not hold its segments:
 * each claim's are handed to `onClaim` when its loop closes (the next CLP, a PLB, the SE).
 */
function remarksReader(terminator: string, onClaim: (remarks: ClaimRemarks) => void): { take(segment: Segment): void } {
  let claim: ClaimRemarks | null = null;
  let line: string[] | null = null;
  // The open CLP loop's segments, joined into one flat string when the loop ends: appending segment by segment
  // would keep a rope of a few dozen bytes of nodes per segment, for every CLP of the 835 at once.
  let loop: string[] = [];
  const close = () => {
    if (claim) {
      claim.text = loop.join(terminator) + terminator;
      onClaim(claim);
    }
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
  return { take };
}
