// The signed instructions a payout batch can still take. An instruction stays SIGNED from the batch that carries it
// until the bank confirms that batch (then DISBURSED, or RETURNED), so one already in a batch is not a choice again;
// a batch still waiting for the bank is always among the newest the screen lists.
import type { PayoutBatchView } from '@/lib/payouts/batch-view';
import type { InstructionView } from '@/lib/settlements/instruction-view';

export function instructionsToPayOut(
  instructions: readonly InstructionView[],
  batches: readonly Pick<PayoutBatchView, 'entries'>[],
): InstructionView[] {
  const batched = new Set(batches.flatMap((batch) => batch.entries.map((entry) => entry.instructionId)));
  return instructions.filter((i) => i.status === 'SIGNED' && !batched.has(i.instructionId));
}
