// Reading one instruction of the caller's clinic, with its pool's available cents. Another clinic's
// instruction is NOT_FOUND, like one that does not exist (DECISIONS.md, Scopes and tenancy).
import type { Deps } from '../deps';
import type { Prisma } from '../db';
import { AppError } from '../errors';
import { toInstructionView, type InstructionView } from './instruction-view';

type Reader = Pick<Prisma.TransactionClient, 'settlementInstruction' | 'settlementPool'>;

/** @throws NOT_FOUND (404) unless the instruction belongs to `clinicId`. */
export async function readInstruction(
  db: Reader,
  clinicId: string,
  instructionId: string,
  now: Date,
): Promise<InstructionView> {
  const row = await db.settlementInstruction.findFirst({ where: { id: instructionId, clinicId } });
  if (!row) throw new AppError('NOT_FOUND', 'No such settlement instruction');
  const pool = await db.settlementPool.findFirst({
    where: { id: row.poolId, clinicId },
    select: { availableCents: true },
  });
  return toInstructionView(row, pool ?? { availableCents: 0n }, now);
}

export async function getInstruction(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { clinicId: string; instructionId: string },
): Promise<InstructionView> {
  return readInstruction(deps.db, input.clinicId, input.instructionId, deps.clock());
}
