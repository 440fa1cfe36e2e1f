// Remittance Advice Remark Codes (RARC) of each claim of each 835, which the reader's object (DECISIONS "Money in")
// leaves out: MOA03-07 (outpatient) and MIA05/20-23 (inpatient) at claim level, LQ*HE at service-line level. The
// denial work queue shows them beside the CARCs. Reads the segments the 835 reader walks; pure.
import { MAX_835_LENGTH, read835s } from '../x12/read-835';
import type { Segment } from '../x12/read-interchange';
import type { Remittance } from '../x12/read-remittance';

/**
 * One CLP's remark codes, as written: claim level, then one list per SVC in order; and `text`, the CLP loop's own
 * segments as written (CLP up to the next CLP, PLB or SE), each with its terminator.
 */
export type ClaimRemarks = { claim: string[]; lines: string[][]; text: string };

const MOA_REMARKS = [3, 4, 5, 6, 7];
const MIA_REMARKS = [5, 20, 21, 22, 23];

/**
 * Every 835 of the interchange (read835s: every check and refusal) with each CLP's remarks in file order, read in
 * the one lazy walk that reads the remittances: no segment is kept past its turn.
 */
export function read835sWithRemarks(text: string): { remittance: Remittance; remarks: ClaimRemarks[] }[] {
  const readers: ReturnType<typeof remarksReader>[] = [];
  const remittances = read835s(text, MAX_835_LENGTH, (segment, index, delimiters) => {
    (readers[index] ??= remarksReader(delimiters.segment)).take(segment);
  });
  return remittances.map((remittance, i) => ({ remittance, remarks: readers[i]?.finish() ?? [] }));
}

/** One 835's remarks read a segment at a time (ST to SE, in order), for a caller that does not hold its segments. */
function remarksReader(terminator: string): { take(segment: Segment): void; finish(): ClaimRemarks[] } {
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
