// The facts from other claims a second-pass claim's 837P carries (DECISIONS "Claim lifecycle"): for a replacement
// or void, the payer's claim control number of the claim it acts on (REF*F8); for a secondary claim, what the
// primary payer's 835 decided (2320 AMT*D and claim-level CAS, 2430 SVD/CAS/DTP*573 per line). The 835 is read
// as posting kept it (RemittanceClaim), so the secondary carries exactly what was posted.
import type { Db, Prisma } from '../db';
import type { OtherPayerAdjustment } from '../x12/professional-claim';
import type { PrimaryAdjudication, SecondPassFacts } from './assemble-professional-claim';

type Reader = Db | Prisma.TransactionClient;

/** CLP02 of a primary adjudication: processed as primary, and processed as primary and forwarded. */
export const PRIMARY_PROCESSED_CODES = ['1', '19'];

type SecondPassClaim = {
  frequency?: string;
  replacesClaimId?: string | null;
  payerRank?: string;
  primaryClaimId?: string | null;
  lines: { procedureCode: string; modifiers: string[]; units: number }[];
};

export async function loadSecondPassFacts(
  db: Reader,
  clinicId: string,
  claim: SecondPassClaim,
): Promise<SecondPassFacts> {
  const facts: SecondPassFacts = {};
  if ((claim.frequency === '7' || claim.frequency === '8') && claim.replacesClaimId) {
    const original = await db.claim.findFirst({
      where: { id: claim.replacesClaimId, clinicId },
      select: { payerClaimId: true },
    });
    facts.replacedPayerClaimId = original?.payerClaimId ?? null;
  }
  if (claim.payerRank === 'secondary' && claim.primaryClaimId)
    facts.primary = await loadPrimaryAdjudication(db, clinicId, claim.primaryClaimId, claim.lines);
  return facts;
}

type StoredAdjustment = { group: string; reason: string; amountCents: number; line: number | null };
type StoredLine = { procedureCode: string; modifiers: string[]; paidCents: number; units: number };

/**
 * The latest posted primary adjudication (CLP02 1 or 19) of the claim, its lines matched to `lines` (the
 * secondary's, copied from the primary in order): by position when the 835 has a line for each, else by procedure
 * code. A claim line the 835 did not list reads as paid 0 without adjustments. Null when there is none.
 */
export async function loadPrimaryAdjudication(
  db: Reader,
  clinicId: string,
  primaryClaimId: string,
  lines: SecondPassClaim['lines'],
): Promise<PrimaryAdjudication | null> {
  const [primary, posted] = await Promise.all([
    db.claim.findFirst({
      where: { id: primaryClaimId, clinicId },
      select: { payerId: true, payerName: true, memberId: true },
    }),
    db.remittanceClaim.findFirst({
      where: { clinicId, claimId: primaryClaimId, posting: 'posted', statusCode: { in: PRIMARY_PROCESSED_CODES } },
      orderBy: { remittance: { createdAt: 'desc' } },
      include: { remittance: { select: { paymentDate: true } } },
    }),
  ]);
  if (!primary || !posted) return null;
  const adjustments = (posted.adjustments as StoredAdjustment[]).filter((a) => a.group !== 'RARC');
  const remitted = posted.lines as StoredLine[];
  const byPosition = remitted.length === lines.length;
  const used = new Set<number>();
  const pair = (a: StoredAdjustment): OtherPayerAdjustment => ({
    group: a.group,
    reason: a.reason,
    amountCents: a.amountCents,
  });
  return {
    payerId: primary.payerId ?? '',
    payerName: primary.payerName ?? '',
    memberId: primary.memberId ?? '',
    paidCents: Number(posted.paidCents),
    adjustments: adjustments.filter((a) => a.line === null).map(pair),
    lines: lines.map((line, i) => {
      const at = byPosition ? i : remitted.findIndex((r, k) => !used.has(k) && r.procedureCode === line.procedureCode);
      const match = at >= 0 ? remitted[at] : undefined;
      if (match) used.add(at);
      return {
        procedureCode: line.procedureCode,
        modifiers: line.modifiers,
        paidCents: match?.paidCents ?? 0,
        units: match ? match.units : line.units,
        adjustments: match ? adjustments.filter((a) => a.line === at + 1).map(pair) : [],
        adjudicationDate: posted.remittance.paymentDate,
      };
    }),
  };
}
