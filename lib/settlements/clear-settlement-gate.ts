// The settlement gate: a staff decision, under step-up, that an encounter is cleared for settlement. An
// instruction that names an encounterId executes only once its encounter is cleared (execute checks it in
// its one conditional update); instructions without an encounterId are not gated. Clearing is idempotent:
// the first clearance (who, when) stands, and a repeat answers it again.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Deps } from '../deps';
import { recordAudit } from '../audit/record-audit';

export const GATE_CLEARED = 'cleared';

export const GateParams = z.object({ encounterId: z.string().trim().min(1).max(200) });

export const SettlementGateView = z.object({
  encounterId: z.string(),
  outcome: z.literal(GATE_CLEARED),
  clearedBy: z.string(),
  clearedAt: z.string(),
  correlationId: z.string(),
});

export async function clearSettlementGate(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { clinicId: string; orgId: string; userId: string; encounterId: string; correlationId: string },
): Promise<z.infer<typeof SettlementGateView>> {
  const now = deps.clock();
  const gate = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.settlementGate.createMany({
      data: [
        {
          id: `gate_${randomUUID().replaceAll('-', '')}`,
          clinicId: input.clinicId,
          encounterId: input.encounterId,
          outcome: GATE_CLEARED,
          createdBy: input.userId,
          correlationId: input.correlationId,
          createdAt: now,
        },
      ],
      skipDuplicates: true,
    });
    if (count === 1) {
      await recordAudit(tx, {
        action: 'settlement.gate.clear',
        outcome: 'success',
        correlationId: input.correlationId,
        userId: input.userId,
        orgId: input.orgId,
        clinicId: input.clinicId,
        detail: { encounterId: input.encounterId },
      });
    }
    return tx.settlementGate.findUniqueOrThrow({
      where: { clinicId_encounterId: { clinicId: input.clinicId, encounterId: input.encounterId } },
    });
  });
  return {
    encounterId: gate.encounterId,
    outcome: GATE_CLEARED,
    clearedBy: gate.createdBy,
    clearedAt: gate.createdAt.toISOString(),
    correlationId: gate.correlationId,
  };
}
