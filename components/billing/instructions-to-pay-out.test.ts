import { describe, expect, it } from 'vitest';
import type { InstructionView } from '@/lib/settlements/instruction-view';
import { instructionsToPayOut } from './instructions-to-pay-out';

const instruction = (instructionId: string, status: InstructionView['status']) =>
  ({ instructionId, status }) as InstructionView;
const entry = (instructionId: string | null) => ({
  traceNumber: '021000020000001',
  instructionId,
  prenote: instructionId === null,
  amountCents: 0,
  returnCode: null,
});

describe('the instructions a payout batch can still take', () => {
  it('keeps signed instructions that no listed batch carries, in their order', () => {
    const instructions = [
      instruction('ins_new', 'SIGNED'),
      instruction('ins_draft', 'DRAFT'),
      instruction('ins_batched', 'SIGNED'),
      instruction('ins_paid', 'DISBURSED'),
      instruction('ins_old', 'SIGNED'),
    ];
    // A prenote entry (no instruction) and a batch carrying one of the signed instructions.
    const batches = [{ entries: [entry(null)] }, { entries: [entry('ins_batched'), entry('ins_paid')] }];
    expect(instructionsToPayOut(instructions, batches).map((i) => i.instructionId)).toEqual(['ins_new', 'ins_old']);
  });

  it('offers every signed instruction while the batches are still being read', () => {
    const instructions = [instruction('ins_a', 'SIGNED'), instruction('ins_b', 'EXPIRED')];
    expect(instructionsToPayOut(instructions, []).map((i) => i.instructionId)).toEqual(['ins_a']);
  });
});
