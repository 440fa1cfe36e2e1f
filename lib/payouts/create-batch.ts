// Building a payout batch (DECISIONS "Money out"): the named SIGNED instructions of the caller's clinic, plus the
// prenote of a payout account not yet proven, become one NACHA file of CCD+ credits. Every check (the
// instructions' state, the account, every NACHA rule on the input and on the rendered text) runs before anything
// is written, and all failures come back together as 422 UNPROCESSABLE with `issues` ("failed batch-wire
// validation"). What each entry pays is the instruction's residual: the advance less fee and reserve, the part
// the disbursement credits out of the FBO account. The file's modifier and trace numbers come from
// allocate-file-numbers.ts; the clinic's batches left unreleased past their effective date are withdrawn first, so
// their instructions and prenote can go in this one.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Deps } from '../deps';
import type { Actor } from '../http/route';
import type { Prisma } from '../db';
import { requireSealKey } from '../config';
import { recordAudit } from '../audit/record-audit';
import { AppError, type ErrorIssue } from '../errors';
import { isUniqueViolation } from '../db/is-unique-violation';
import { addBankingDays } from './banking-days';
import {
  checkNachaInput,
  checkNachaText,
  renderNachaFile,
  traceNumber,
  type NachaEntry,
  type NachaFileInput,
} from './nacha-file';
import { MAX_BATCH_ENTRIES, ORIGINATOR } from './originator';
import { originatorDateTime } from './originator-date-time';
import { allocateFileNumbers } from './allocate-file-numbers';
import { payoutAccountState, unsealPayoutAccount } from './payout-account';
import { withdrawStaleBatches } from './withdraw-stale-batches';

export const CreateBatchBody = z.object({
  instructionIds: z.array(z.string().trim().min(1).max(200)).max(MAX_BATCH_ENTRIES - 1),
});

export const CreatedBatch = z.object({
  batchId: z.string(),
  status: z.literal('created'),
  effectiveDate: z.string(),
  entryCount: z.number().int(),
  totalCents: z.number().int(),
  traceNumber: z.string(),
});

const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 15_000 };

type Paid = { instructionId: string; residualCents: bigint };

/** The instructions' own problems, by their position in the body. */
async function checkInstructions(
  tx: Prisma.TransactionClient,
  clinicId: string,
  ids: string[],
  now: Date,
): Promise<{ issues: ErrorIssue[]; paid: Paid[] }> {
  const issues: ErrorIssue[] = [];
  const paid: Paid[] = [];
  const rows = await tx.settlementInstruction.findMany({ where: { id: { in: ids }, clinicId } });
  const pools = await tx.settlementPool.findMany({ where: { id: { in: rows.map((row) => row.poolId) } } });
  const batched = await tx.payoutEntry.findMany({
    where: { instructionId: { in: ids } },
    select: { instructionId: true },
  });
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    const path = `instructionIds[${i}]`;
    const add = (message: string) => issues.push({ path, message: `${id} ${message}` });
    if (seen.has(id)) return add('is named twice');
    seen.add(id);
    const row = rows.find((r) => r.id === id);
    if (!row) return add("is not an instruction of this clinic's pools");
    const pool = pools.find((p) => p.id === row.poolId);
    if (pool?.clinicId !== clinicId) return add("draws on another clinic's pool");
    if (row.status !== 'SIGNED') return add(`is ${row.status}, not SIGNED`);
    if (row.expiresAt <= now) return add('is past its time to live');
    if (batched.some((entry) => entry.instructionId === id)) return add('is already in a payout batch');
    if (row.residualCents <= 0n) return add('pays the clinic nothing (its residual is zero)');
    paid.push({ instructionId: id, residualCents: row.residualCents });
  });
  return { issues, paid };
}

/**
 * @throws UNPROCESSABLE (422) with every issue; nothing is written. A batch may be empty of instructions only
 *   when the clinic's account still needs its prenote. NOT_EXECUTABLE (409) when no file can be numbered
 *   (allocateFileNumbers).
 */
export async function createBatch(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  actor: Actor,
  body: z.infer<typeof CreateBatchBody>,
): Promise<z.infer<typeof CreatedBatch>> {
  const sealKey = requireSealKey(deps.config);
  const { clinicId } = actor;
  const now = deps.clock();
  const created = originatorDateTime(now);
  try {
    return await deps.db.$transaction(async (tx) => {
      await withdrawStaleBatches(tx, actor, { today: created.date });
      const { issues, paid } = await checkInstructions(tx, clinicId, body.instructionIds, now);
      const account = await tx.payoutAccount.findUnique({ where: { clinicId } });
      if (!account) issues.push({ path: 'payoutAccount', message: 'The clinic has no payout account' });
      const state = payoutAccountState(account);
      const needsPrenote = state === 'needs_prenote';
      if ((needsPrenote || state === 'prenote_sent') && body.instructionIds.length > 0)
        issues.push({
          path: 'payoutAccount',
          message: needsPrenote
            ? 'The payout account is not verified yet: send its prenote first (a batch of no instructions)'
            : 'The payout account is not verified until the bank confirms the batch carrying its prenote',
        });
      if (account && body.instructionIds.length === 0 && !needsPrenote)
        issues.push({ path: 'instructionIds', message: 'A batch needs at least one instruction' });
      if (issues.length > 0 || !account) throw batchRefused(issues);

      const clear = unsealPayoutAccount(account, sealKey);
      const entryOf = (prenote: boolean, amountCents: bigint, addenda: string): NachaEntry => ({
        accountType: clear.accountType,
        prenote,
        routingNumber: clear.routingNumber,
        accountNumber: clear.accountNumber,
        amountCents: Number(amountCents),
        individualId: clinicId.slice(0, 15),
        receiverName: clear.holderName,
        addenda,
      });
      const entries = [
        ...(needsPrenote ? [{ instructionId: null, entry: entryOf(true, 0n, 'PRENOTE PAYOUT ACCOUNT') }] : []),
        ...paid.map((p) => ({
          instructionId: p.instructionId,
          entry: entryOf(false, p.residualCents, `SETTLEMENT INSTRUCTION ${p.instructionId}`),
        })),
      ];
      const numbers = await allocateFileNumbers(tx, { fileCreationDate: created.date, entryCount: entries.length });
      const input: NachaFileInput = {
        immediateDestination: ORIGINATOR.odfiRoutingNumber,
        destinationName: ORIGINATOR.destinationName,
        immediateOrigin: ORIGINATOR.immediateOrigin,
        originName: ORIGINATOR.originName,
        companyName: ORIGINATOR.companyName,
        companyId: ORIGINATOR.companyId,
        odfiRoutingNumber: ORIGINATOR.odfiRoutingNumber,
        companyEntryDescription: ORIGINATOR.companyEntryDescription,
        createdAt: created,
        effectiveDate: addBankingDays(created.date, 1),
        fileIdModifier: numbers.fileIdModifier,
        batchNumber: 1,
        firstTraceSequence: numbers.firstTraceSequence,
        entries: entries.map((e) => e.entry),
      };
      const inputIssues = checkNachaInput(input);
      if (inputIssues.length > 0)
        throw batchRefused(inputIssues.map((issue) => ({ ...issue, path: `file.${issue.path}` })));
      const fileText = renderNachaFile(input);
      const textIssues = checkNachaText(fileText);
      if (textIssues.length > 0) throw batchRefused(textIssues);

      const batchId = `pbt_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
      const totalCents = paid.reduce((total, p) => total + p.residualCents, 0n);
      const trace = traceNumber(ORIGINATOR.odfiRoutingNumber, input.firstTraceSequence);
      await tx.payoutBatch.create({
        data: {
          id: batchId,
          clinicId,
          status: 'created',
          traceNumber: trace,
          fileCreationDate: created.date,
          fileIdModifier: input.fileIdModifier,
          effectiveDate: input.effectiveDate,
          entryCount: entries.length,
          totalCents,
          fileText,
          createdBy: actor.userId,
          entries: {
            create: entries.map((e, i) => ({
              clinicId,
              instructionId: e.instructionId,
              traceNumber: traceNumber(ORIGINATOR.odfiRoutingNumber, input.firstTraceSequence + i),
              amountCents: BigInt(e.entry.amountCents),
              prenote: e.entry.prenote,
            })),
          },
        },
      });
      if (needsPrenote) await tx.payoutAccount.update({ where: { clinicId }, data: { prenoteBatchId: batchId } });
      await recordAudit(tx, {
        action: 'settlement.batch.create',
        outcome: 'success',
        correlationId: actor.correlationId,
        userId: actor.userId,
        orgId: actor.orgId,
        clinicId,
        detail: {
          batchId,
          traceNumber: trace,
          fileIdModifier: input.fileIdModifier,
          instructionIds: body.instructionIds,
          prenote: needsPrenote,
        },
      });
      return {
        batchId,
        status: 'created' as const,
        effectiveDate: input.effectiveDate,
        entryCount: entries.length,
        totalCents: Number(totalCents),
        traceNumber: trace,
      };
    }, TRANSACTION_OPTIONS);
  } catch (error) {
    // Two batches racing for one instruction: the unique instructionId lets one win; the other is refused. Any
    // other unique index (file numbers, trace numbers) losing is a fault, never reported as this race.
    if (isUniqueViolation(error) && (await isAnyInstructionBatched(deps.db, body.instructionIds)))
      throw batchRefused([{ path: 'instructionIds', message: 'An instruction was put in another batch meanwhile' }]);
    throw error;
  }
}

async function isAnyInstructionBatched(db: Pick<Deps['db'], 'payoutEntry'>, instructionIds: string[]) {
  return (await db.payoutEntry.count({ where: { instructionId: { in: instructionIds } } })) > 0;
}

function batchRefused(issues: ErrorIssue[]): AppError {
  return new AppError('UNPROCESSABLE', 'The batch failed batch-wire validation', { issues });
}
