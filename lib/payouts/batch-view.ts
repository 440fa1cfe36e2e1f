// A payout batch as the API shows it: amounts in integer cents, its entries with their instruction and return.
import { z } from 'zod';
import type { Prisma } from '../db';
import { centsToNumber } from '../money/cents-to-number';
import { AppError } from '../errors';
import { PAYOUT_ACCOUNT_STATES, payoutAccountState } from './payout-account';

export const BATCH_STATUSES = ['created', 'released', 'confirmed'] as const;

export const PayoutBatchView = z.object({
  batchId: z.string(),
  status: z.enum(BATCH_STATUSES),
  effectiveDate: z.string(),
  entryCount: z.number().int(),
  totalCents: z.number().int(),
  traceNumber: z.string(),
  releasedAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  confirmedCents: z.number().int().nullable(),
  entries: z.array(
    z.object({
      traceNumber: z.string(),
      instructionId: z.string().nullable(),
      prenote: z.boolean(),
      amountCents: z.number().int(),
      returnCode: z.string().nullable(),
    }),
  ),
});
export type PayoutBatchView = z.infer<typeof PayoutBatchView>;

export const BatchList = z.object({
  batches: z.array(PayoutBatchView),
  payoutAccount: z.enum(PAYOUT_ACCOUNT_STATES),
});
export type BatchList = z.infer<typeof BatchList>;

type Row = Prisma.PayoutBatchGetPayload<{ include: { entries: true } }>;

export function toBatchView(row: Row): PayoutBatchView {
  return {
    batchId: row.id,
    status: row.status as PayoutBatchView['status'],
    effectiveDate: row.effectiveDate,
    entryCount: row.entryCount,
    totalCents: centsToNumber(row.totalCents),
    traceNumber: row.traceNumber,
    releasedAt: row.releasedAt?.toISOString() ?? null,
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
    confirmedCents: row.confirmedCents === null ? null : centsToNumber(row.confirmedCents),
    entries: [...row.entries]
      .sort((a, b) => a.traceNumber.localeCompare(b.traceNumber))
      .map((entry) => ({
        traceNumber: entry.traceNumber,
        instructionId: entry.instructionId,
        prenote: entry.prenote,
        amountCents: centsToNumber(entry.amountCents),
        returnCode: entry.returnCode,
      })),
  };
}

export async function readBatch(tx: Prisma.TransactionClient, clinicId: string, batchId: string) {
  return tx.payoutBatch.findFirst({ where: { id: batchId, clinicId }, include: { entries: true } });
}

/** The newest batches, and where the payout account stands (what the next batch can be: its prenote, or payouts). */
export async function listBatches(deps: { db: Prisma.TransactionClient }, clinicId: string) {
  const [rows, account] = await Promise.all([
    deps.db.payoutBatch.findMany({
      where: { clinicId },
      include: { entries: true },
      orderBy: { createdAt: 'desc' },
      take: 50,
    }),
    deps.db.payoutAccount.findUnique({ where: { clinicId }, select: { verifiedAt: true, prenoteBatchId: true } }),
  ]);
  return { batches: rows.map(toBatchView), payoutAccount: payoutAccountState(account) };
}

export async function getBatch(deps: { db: Prisma.TransactionClient }, clinicId: string, batchId: string) {
  const row = await readBatch(deps.db, clinicId, batchId);
  if (!row) throw new AppError('NOT_FOUND', 'No such payout batch');
  return toBatchView(row);
}

/**
 * The file exactly as stored, served as text/plain for the operator to upload, once the batch is released. Before
 * that it is refused: release (step-up) is what commits the money, and a file uploaded unreleased would move money
 * its pools have not given up, which the bank's posting could not confirm (confirmation needs `released`).
 * @throws NOT_FOUND (404) outside the clinic; NOT_EXECUTABLE (409) while the batch is `created`.
 */
export async function batchFile(deps: { db: Prisma.TransactionClient }, clinicId: string, batchId: string) {
  const row = await deps.db.payoutBatch.findFirst({
    where: { id: batchId, clinicId },
    select: { fileText: true, traceNumber: true, status: true },
  });
  if (!row) throw new AppError('NOT_FOUND', 'No such payout batch');
  if (row.status !== 'released' && row.status !== 'confirmed')
    throw new AppError(
      'NOT_EXECUTABLE',
      'The file of a payout batch is served once the batch is released: release it first',
    );
  return new Response(row.fileText, {
    headers: {
      'Content-Type': 'text/plain; charset=us-ascii',
      'Content-Disposition': `attachment; filename="payout-${row.traceNumber}.ach"`,
    },
  });
}
