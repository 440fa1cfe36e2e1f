// What the settlement console opens on: the clinic's pools and its newest instructions (each with its waterfall),
// read for the caller's clinic only.
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Db } from '../db';
import { centsToNumber } from '../money/cents-to-number';
import { InstructionView, toInstructionView } from './instruction-view';

const RECENT_INSTRUCTIONS = 20;

export const PoolSummary = z.object({ poolId: z.string(), availableCents: z.number().int(), status: z.string() });
export type PoolSummary = z.infer<typeof PoolSummary>;

export const SettlementOverview = z.object({
  pools: z.array(PoolSummary),
  /** The newest 20, newest first. */
  instructions: z.array(InstructionView),
});
export type SettlementOverview = z.infer<typeof SettlementOverview>;

export async function readSettlementOverview(
  deps: { db: Db; clock: Clock },
  clinicId: string,
): Promise<SettlementOverview> {
  const now = deps.clock();
  const [pools, rows] = await Promise.all([
    deps.db.settlementPool.findMany({ where: { clinicId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    deps.db.settlementInstruction.findMany({
      where: { clinicId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: RECENT_INSTRUCTIONS,
    }),
  ]);
  const available = new Map(pools.map((p) => [p.id, p.availableCents]));
  return {
    pools: pools.map((p) => ({ poolId: p.id, availableCents: centsToNumber(p.availableCents), status: p.status })),
    instructions: rows.map((row) => toInstructionView(row, { availableCents: available.get(row.poolId) ?? 0n }, now)),
  };
}
