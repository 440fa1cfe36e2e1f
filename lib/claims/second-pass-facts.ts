// The facts from other claims a second-pass claim's 837P carries (DECISIONS "Claim lifecycle"): for a replacement
// or void, the payer's claim control number of the claim it acts on (REF*F8); for a secondary claim, what the
// primary payer's 835 decided (2320 AMT*D and claim-level CAS, 2430 SVD/CAS/DTP*573 per line when the 835's lines
// match the claim's). The 835 is read as posting kept it (RemittanceClaim), so the secondary carries exactly what
// was posted.
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
  lines: ClaimLine[];
};

/** A claim line as the secondary sends it (SV1): what the primary's 835 is matched against. */
type ClaimLine = { procedureCode: string; modifiers: string[]; units: number; chargeCents: bigint | number };

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
/** A stored SVC (plan-posting.ts): SVC01's code and modifiers, SVC02 charge, SVC03 paid, SVC05 units. */
type StoredLine = {
  procedureCode: string;
  modifiers: string[];
  chargeCents?: number;
  paidCents: number;
  units: number;
};

/**
 * The latest posted primary adjudication (CLP02 1 or 19) of the claim, null when there is none. Each SVC is matched
 * to one of `lines` (the secondary's, copied from the primary) by procedure code and modifiers, never by position
 * alone (matchLines). When every line has its SVC with the line's charge and no SVC is left over, the adjudication
 * goes per line (the 837P's 2430). Otherwise it cannot go per line and balance: the 835 gave no line detail, or a
 * line or SVC has no partner. Then every line reads as paid 0 without adjustments, and the claim carries the whole
 * adjudication: CLP04 paid, and the claim-level CAS with every SVC's (2320, with 2330B's DTP*573).
 */
export async function loadPrimaryAdjudication(
  db: Reader,
  clinicId: string,
  primaryClaimId: string,
  lines: readonly ClaimLine[],
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
  const matched = matchLines(lines, remitted);
  const hasLineDetail =
    remitted.length === lines.length &&
    matched.every((at, i) => at !== -1 && remitted[at]!.chargeCents === Number(lines[i]!.chargeCents));
  const pair = (a: StoredAdjustment): OtherPayerAdjustment => ({
    group: a.group,
    reason: a.reason,
    amountCents: a.amountCents,
  });
  const adjudicationDate = posted.remittance.paymentDate;
  return {
    payerId: primary.payerId ?? '',
    payerName: primary.payerName ?? '',
    memberId: primary.memberId ?? '',
    paidCents: Number(posted.paidCents),
    adjustments: (hasLineDetail ? adjustments.filter((a) => a.line === null) : adjustments).map(pair),
    lines: lines.map((line, i) => {
      const { procedureCode, modifiers, units } = line;
      if (!hasLineDetail) return { procedureCode, modifiers, paidCents: 0, units, adjustments: [], adjudicationDate };
      const at = matched[i]!;
      const svc = remitted[at]!;
      return {
        // SVD03 is the code the payer adjudicated, its SVC01 (X12 RFI 1796), else the line's.
        ...(svc.procedureCode
          ? { procedureCode: svc.procedureCode, modifiers: svc.modifiers }
          : { procedureCode, modifiers }),
        paidCents: svc.paidCents,
        units: svc.units,
        adjustments: adjustments.filter((a) => a.line === at + 1).map(pair),
        adjudicationDate,
      };
    }),
  };
}

/**
 * For each claim line, the index of its SVC in `remitted`, -1 when none; each SVC pairs with one line at most.
 * First the same procedure code and modifiers (SVC01 as the payer echoes the line); then the same procedure code,
 * for a payer that dropped or reordered a modifier (as posting pays lines, plan-posting.ts); then, for an SVC that
 * names no procedure, the line at its position. SVC06 (the code as submitted, when the payer adjudicated another)
 * would match better, but the 835 reader does not keep it.
 */
function matchLines(lines: readonly ClaimLine[], remitted: readonly StoredLine[]): number[] {
  const matched = lines.map(() => -1);
  const used = new Set<number>();
  const pass = (fits: (line: ClaimLine, svc: StoredLine, lineAt: number, svcAt: number) => boolean) =>
    lines.forEach((line, i) => {
      if (matched[i] !== -1) return;
      const at = remitted.findIndex((svc, k) => !used.has(k) && fits(line, svc, i, k));
      if (at === -1) return;
      matched[i] = at;
      used.add(at);
    });
  pass((line, svc) => svc.procedureCode === line.procedureCode && sameModifiers(svc.modifiers, line.modifiers));
  pass((line, svc) => svc.procedureCode === line.procedureCode);
  pass((_line, svc, lineAt, svcAt) => svc.procedureCode === '' && svcAt === lineAt);
  return matched;
}

function sameModifiers(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((modifier, i) => modifier === b[i]);
}
