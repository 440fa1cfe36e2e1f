// Signing: a DRAFT instruction of the clinic, not yet expired, becomes SIGNED by the caller (step-up required
// by the route). One conditional update, so two racing signatures record one signer.
import type { Deps } from '../deps';
import { AppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import { effectiveStatus, type InstructionView } from './instruction-view';
import { readInstruction } from './get-instruction';

/** @throws NOT_FOUND (404) outside the clinic; NOT_EXECUTABLE (409) unless it is an unexpired DRAFT. */
export async function signInstruction(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { clinicId: string; orgId: string; userId: string; instructionId: string; correlationId: string },
): Promise<InstructionView> {
  const now = deps.clock();
  return deps.db.$transaction(async (tx) => {
    const { count } = await tx.settlementInstruction.updateMany({
      where: { id: input.instructionId, clinicId: input.clinicId, status: 'DRAFT', expiresAt: { gt: now } },
      data: { status: 'SIGNED', signedBy: input.userId, signedAt: now },
    });
    if (count === 0) {
      const row = await tx.settlementInstruction.findFirst({
        where: { id: input.instructionId, clinicId: input.clinicId },
        select: { status: true, expiresAt: true },
      });
      if (!row) throw new AppError('NOT_FOUND', 'No such settlement instruction');
      throw new AppError(
        'NOT_EXECUTABLE',
        `Only an unexpired DRAFT instruction can be signed; this one is ${effectiveStatus(row, now)}`,
      );
    }
    await recordAudit(tx, {
      action: 'settlement.instruction.sign',
      outcome: 'success',
      correlationId: input.correlationId,
      userId: input.userId,
      orgId: input.orgId,
      clinicId: input.clinicId,
      detail: { instructionId: input.instructionId },
    });
    return readInstruction(tx, input.clinicId, input.instructionId, now);
  });
}
