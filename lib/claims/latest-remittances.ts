// The latest posted remittance of each claim (its CLP's CAS and remark codes as stored), what the denial queue
// shows and the next action reads. Reversals (CLP02 22) and unmatched CLPs never describe the claim's state.
import type { Db, Prisma } from '../db';

export type LatestRemittance = { remittanceId: string; adjustments: unknown };

export async function findLatestRemittances(
  db: Db | Prisma.TransactionClient,
  clinicId: string,
  claimIds: readonly string[],
): Promise<Map<string, LatestRemittance>> {
  const latest = new Map<string, LatestRemittance>();
  if (claimIds.length === 0) return latest;
  const rows = await db.remittanceClaim.findMany({
    where: { clinicId, claimId: { in: [...claimIds] }, statusCode: { not: '22' }, posting: 'posted' },
    orderBy: [{ remittance: { createdAt: 'desc' } }, { position: 'desc' }],
    select: { claimId: true, remittanceId: true, adjustments: true },
  });
  for (const row of rows) if (!latest.has(row.claimId)) latest.set(row.claimId, row);
  return latest;
}
