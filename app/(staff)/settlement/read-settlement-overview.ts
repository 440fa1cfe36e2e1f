// What the settlement console opens on: the clinic's pools and its newest instructions. No /api route lists
// them (the settlement API reads one instruction at a time), so the page reads them on the server for the
// signed-in principal's clinic only; every action the console takes goes through /api/settlement.
import { getDeps } from '@/lib/deps';
import { centsToNumber } from '@/lib/money/cents-to-number';
import { toInstructionView, type InstructionView } from '@/lib/settlements/instruction-view';

export type PoolSummary = { poolId: string; availableCents: number; status: string };

export async function readSettlementOverview(
  clinicId: string,
): Promise<{ pools: PoolSummary[]; instructions: InstructionView[] }> {
  const { db, clock } = await getDeps();
  const now = clock();
  const pools = await db.settlementPool.findMany({
    where: { clinicId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const rows = await db.settlementInstruction.findMany({
    where: { clinicId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: 20,
  });
  const available = new Map(pools.map((p) => [p.id, p.availableCents]));
  return {
    pools: pools.map((p) => ({ poolId: p.id, availableCents: centsToNumber(p.availableCents), status: p.status })),
    instructions: rows.map((row) => toInstructionView(row, { availableCents: available.get(row.poolId) ?? 0n }, now)),
  };
}
