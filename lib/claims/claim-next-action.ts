// The next action of one claim (DECISIONS "Claim lifecycle"): only a denied or partially paid claim has one. Reads
// the codes of its latest remittance as post-remittance.ts stored them and hands them to the rule table.
import { centsToNumber } from '../money/cents-to-number';
import { nextActionFor, type NextActionAdvice } from '../remittances/next-action';
import { claimBalanceCents } from './claim-balance';

type StoredCode = { group?: unknown; reason?: unknown; line?: unknown };

export const CLAIMS_WITH_NEXT_ACTION: readonly string[] = ['denied', 'partially_paid'];

export function claimNextAction(
  claim: Parameters<typeof claimBalanceCents>[0] & { status: string },
  storedAdjustments: unknown,
  hasSecondaryCoverage: boolean,
): NextActionAdvice | null {
  if (!CLAIMS_WITH_NEXT_ACTION.includes(claim.status)) return null;
  const stored = (Array.isArray(storedAdjustments) ? storedAdjustments : []) as StoredCode[];
  const codeOf = (entry: StoredCode) => String(entry.reason);
  return nextActionFor({
    // The patient's share (PR) is billed, not worked as a denial.
    reasonCodes: stored.filter((e) => e.group !== 'RARC' && e.group !== 'PR').map(codeOf),
    lineRemarkCodes: stored.filter((e) => e.group === 'RARC' && typeof e.line === 'number').map(codeOf),
    balanceCents: centsToNumber(claimBalanceCents(claim)),
    patientResponsibilityCents: centsToNumber(claim.patientResponsibilityCents),
    hasSecondaryCoverage,
  });
}
