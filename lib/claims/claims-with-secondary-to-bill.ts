// Which claims may still be billed to a secondary payer: the one input of the next-action rules (bill_secondary,
// DECISIONS "Claim lifecycle") that is not on the claim. A primary claim qualifies when its patient has a secondary
// coverage on file and no secondary claim was made from it yet; a secondary claim never does (what it leaves is the
// patient's). Two queries for any number of claims.
import type { Db, Prisma } from '../db';

export async function claimsWithSecondaryToBill(
  db: Db | Prisma.TransactionClient,
  clinicId: string,
  rows: readonly { id: string; patientId: string; payerRank: string }[],
): Promise<Set<string>> {
  const primaries = rows.filter((row) => row.payerRank === 'primary');
  if (primaries.length === 0) return new Set();
  const [covered, billed] = await Promise.all([
    db.patient.findMany({
      where: {
        clinicId,
        id: { in: [...new Set(primaries.map((row) => row.patientId))] },
        secondaryPayerId: { not: null },
      },
      select: { id: true },
    }),
    db.claim.findMany({
      where: { clinicId, primaryClaimId: { in: primaries.map((row) => row.id) } },
      select: { primaryClaimId: true },
    }),
  ]);
  const withCoverage = new Set(covered.map((patient) => patient.id));
  const alreadyBilled = new Set(billed.map((claim) => claim.primaryClaimId));
  return new Set(
    primaries.filter((row) => withCoverage.has(row.patientId) && !alreadyBilled.has(row.id)).map((row) => row.id),
  );
}
