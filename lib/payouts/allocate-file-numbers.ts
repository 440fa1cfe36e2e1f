// The numbers that tell one payout file from every other at the bank: the File ID Modifier of its header and the
// trace numbers of its entries. It does not render them (nacha-file.ts) nor decide what the file holds.
//
// - File ID Modifier: a bank's duplicate-file check compares the header's immediate destination, immediate origin,
//   creation date and modifier, and ours are fixed (originator.ts), so each file of one creation date needs its
//   own modifier. NACHA's are A-Z then 0-9: the day's 37th file cannot be told apart and is refused.
// - Trace numbers: ODFI routing (8 digits) + a 7-digit sequence, given per entry, ascending and never given twice.
//   NACHA itself asks only for uniqueness within a file, but the banking webhook names an entry or a batch by its
//   trace alone (railReference, with no date: DECISIONS "Money out"), so a trace reused even years later could
//   confirm or return the wrong payout. 9,999,999 entries last 40 years at a thousand payouts every banking day;
//   when they are used up the creation is refused with its own error rather than wrapping onto a trace the bank
//   may still return. The next trace follows the greatest stored one, so a batch withdrawn unreleased
//   (withdraw-stale-batches.ts) may give its traces back: its file was never served, so never reached the bank.
//
// Both are computed under one transaction-scoped lock, so concurrent creations queue here and each reads the
// files committed before it: no two can take the same modifier or overlapping traces. The unique indexes on
// (fileCreationDate, fileIdModifier) and traceNumber stand behind the lock.
import type { Prisma } from '../db';
import { AppError } from '../errors';
import { ORIGINATOR } from './originator';

export const FILE_ID_MODIFIERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const MAX_TRACE_SEQUENCE = 9_999_999;

const LOCK_NUMBERING = `SELECT pg_advisory_xact_lock(hashtext('payout-file-numbering')) IS NULL AS "locked"`;
// The traces share the ODFI's 8 digits and are zero-padded to 7, so the greatest string is the greatest sequence;
// the range lets the unique index on traceNumber answer from its end.
const LAST_TRACE = `SELECT max("traceNumber") AS "last" FROM "PayoutEntry" WHERE "traceNumber" BETWEEN $1 AND $2`;

export type FileNumbers = { fileIdModifier: string; firstTraceSequence: number };

/**
 * Call inside the transaction that creates the batch, as late as possible before the insert (the lock is held
 * until it commits).
 * @throws NOT_EXECUTABLE (409) when the day's 36 modifiers are taken, or when the trace sequence is used up.
 */
export async function allocateFileNumbers(
  tx: Prisma.TransactionClient,
  input: { fileCreationDate: string; entryCount: number },
): Promise<FileNumbers> {
  await tx.$queryRawUnsafe(LOCK_NUMBERING);
  // Every file of the day counts, those created before modifiers were stored (all "A") included, so a new one
  // never takes the "A" one of them already carries.
  const filesToday = await tx.payoutBatch.count({ where: { fileCreationDate: input.fileCreationDate } });
  const fileIdModifier = FILE_ID_MODIFIERS[filesToday];
  if (fileIdModifier === undefined)
    throw new AppError(
      'NOT_EXECUTABLE',
      `${FILE_ID_MODIFIERS.length} payout files were created on ${input.fileCreationDate}, as many as the bank can ` +
        'tell apart in one day (File ID Modifiers A-Z, 0-9): create this batch on the next day',
    );

  const odfi8 = ORIGINATOR.odfiRoutingNumber.slice(0, 8);
  const [row] = await tx.$queryRawUnsafe<{ last: string | null }[]>(
    LAST_TRACE,
    `${odfi8}0000000`,
    `${odfi8}${MAX_TRACE_SEQUENCE}`,
  );
  const firstTraceSequence = (row?.last ? Number(row.last.slice(8)) : 0) + 1;
  if (firstTraceSequence + input.entryCount - 1 > MAX_TRACE_SEQUENCE)
    throw new AppError(
      'NOT_EXECUTABLE',
      'The ACH trace numbers of this originator are used up: no payout file can be created until the bank ' +
        'assigns new originator numbers',
    );
  return { fileIdModifier, firstTraceSequence };
}
