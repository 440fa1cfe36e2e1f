// ERA retrieval (DECISIONS "Recurring work", hourly when CLEARINGHOUSE_* is set): the 835 interchanges waiting at the
// clearinghouse are fetched one by one (CAQH CORE batch results retrieval) and each posts through the one remittance
// ingest (ingest-remittance.ts, source "clearinghouse"), for the clinic whose claims its CLPs name. Only after the
// interchange is posted (or found already posted) does our 999 acknowledge it, so the clearinghouse stops offering
// it; a crash between the two re-fetches it next time and the ingest, idempotent on (payer id, TRN02), posts
// nothing twice. An interchange that cannot be posted is not acknowledged: it stays at the clearinghouse for a
// person, is logged with its reason, and ends the run when it is offered again. No database transaction is open
// while the clearinghouse answers.
import { z } from 'zod';
import type { Deps } from '../deps';
import type { Db } from '../db';
import { AppError, isAppError } from '../errors';
import type { Logger } from '../log';
import type { ClearinghouseTransport } from '../clearinghouse/clearinghouse-transport';
import { takeControlNumber } from '../claims/take-control-numbers';
import { build999 } from '../x12/build-999';
import { read835s } from '../x12/read-835';
import { readInterchange } from '../x12/read-interchange';
import type { Remittance } from '../x12/read-remittance';
import { X12ReadError } from '../x12/x12-read-error';
import { ingestRemittance } from './ingest-remittance';

/** Files taken in one run; what remains waits for the next run. */
const MAX_FILES_PER_RUN = 100;

export const RetrievalRun = z.object({
  /** Interchanges the clearinghouse delivered in this run. */
  files: z.number().int(),
  /** Each 835 posted (or found already posted: duplicate), in delivery order. */
  remittances: z.array(
    z.object({
      fileId: z.string(),
      clinicId: z.string(),
      remittanceId: z.string(),
      payerId: z.string(),
      traceNumber: z.string(),
      duplicate: z.boolean(),
      claimsPosted: z.number().int(),
    }),
  ),
  /** Interchanges that could not be posted; not acknowledged, so they stay at the clearinghouse. */
  refused: z.array(z.object({ fileId: z.string(), reason: z.string() })),
  correlationId: z.string(),
});
export type RetrievalRun = z.infer<typeof RetrievalRun>;

type RetrievalDeps = Pick<Deps, 'db' | 'clock'> & {
  /** The live clearinghouse; null (or the sandbox's) when CLEARINGHOUSE_* is not set. */
  clearinghouse: ClearinghouseTransport | null;
  log?: Logger;
};

/**
 * @throws NOT_CONFIGURED (501) without a live clearinghouse, before any call or write; TRANSPORT_FAILED (502) when
 *   the clearinghouse cannot be reached (what was posted before stays posted).
 */
export async function retrieveRemittances(
  deps: RetrievalDeps,
  input: { now: Date; correlationId?: string },
): Promise<RetrievalRun> {
  const clearinghouse = deps.clearinghouse;
  if (clearinghouse?.mode !== 'live') {
    throw new AppError('NOT_CONFIGURED', 'Remittance retrieval from the clearinghouse is not configured', {
      cause: new Error('unconfigured: CLEARINGHOUSE_URL'),
    });
  }
  const correlationId = input.correlationId ?? `era-retrieval-${input.now.toISOString()}`;
  const run: RetrievalRun = { files: 0, remittances: [], refused: [], correlationId };
  const seen = new Set<string>();
  while (run.files < MAX_FILES_PER_RUN) {
    const file = await clearinghouse.retrieveRemittance({ correlationId });
    // Nothing waits, or the clearinghouse offers again a file this run could not post.
    if (!file || seen.has(file.fileId)) break;
    seen.add(file.fileId);
    run.files += 1;
    let posted: Awaited<ReturnType<typeof postFile>>;
    try {
      posted = await postFile(deps, { x12: file.x12, correlationId });
    } catch (error) {
      if (!isAppError(error) || error.code !== 'UNPROCESSABLE') throw error;
      deps.log?.error({ fileId: file.fileId, reason: error.message }, 'retrieved 835 not posted; left unacknowledged');
      run.refused.push({ fileId: file.fileId, reason: error.message });
      continue;
    }
    for (const remittance of posted.remittances) run.remittances.push({ fileId: file.fileId, ...remittance });
    for (const ack of await acknowledgments(deps.db, clearinghouse, file.x12, input.now))
      await clearinghouse.acknowledgeRemittance(ack, { correlationId });
  }
  return run;
}

async function postFile(deps: RetrievalDeps, input: { x12: string; correlationId: string }) {
  let remittances: Remittance[];
  try {
    remittances = read835s(input.x12);
  } catch (error) {
    if (error instanceof X12ReadError)
      throw new AppError('UNPROCESSABLE', `The 835 cannot be posted: ${error.message}`, { cause: error });
    throw error;
  }
  const clinicId = await clinicOf(deps.db, remittances);
  const result = await ingestRemittance(deps, { ...input, clinicId, source: 'clearinghouse' });
  return {
    remittances: result.remittances.map((r) => ({
      clinicId,
      remittanceId: r.remittanceId,
      payerId: r.payerId,
      traceNumber: r.traceNumber,
      duplicate: r.duplicate,
      claimsPosted: r.claimsPosted,
    })),
  };
}

/**
 * The clinic an interchange pays: the one whose claims its CLP01s name (claim ids are unique across clinics), else
 * the one clinic billing under its payee NPI. Claims of several clinics in one interchange are refused.
 */
async function clinicOf(db: Db, remittances: Remittance[]): Promise<string> {
  const ids = [...new Set(remittances.flatMap((r) => r.claims.map((claim) => claim.claimId)))];
  const claims = await db.claim.findMany({
    where: { id: { in: ids } },
    select: { clinicId: true },
    distinct: ['clinicId'],
  });
  if (claims.length === 1) return claims[0]!.clinicId;
  if (claims.length > 1)
    throw new AppError('UNPROCESSABLE', 'The 835 interchange names claims of several clinics; nothing was posted');
  const npis = [...new Set(remittances.map((r) => r.payeeNpi).filter((npi): npi is string => npi !== null))];
  const clinics =
    npis.length === 1
      ? await db.clinic.findMany({ where: { billingNpi: npis[0] }, select: { id: true }, take: 2 })
      : [];
  if (clinics.length === 1) return clinics[0]!.id;
  throw new AppError('UNPROCESSABLE', 'The 835 names no claim we sent; nothing was posted');
}

/** Our 999 for each functional group of the interchange: every 835 accepted (it was posted). */
async function acknowledgments(
  db: Db,
  clearinghouse: ClearinghouseTransport,
  x12: string,
  now: Date,
): Promise<string[]> {
  const acks: string[] = [];
  for (const group of readInterchange(x12).groups) {
    const controlNumber = await takeControlNumber(db, '999');
    acks.push(
      build999({
        interchangeControlNumber: controlNumber,
        groupControlNumber: controlNumber,
        transactionControlNumber: String(controlNumber).padStart(4, '0'),
        senderId: clearinghouse.parties.senderId,
        receiverId: clearinghouse.parties.receiverId,
        usageIndicator: clearinghouse.parties.usageIndicator,
        createdAt: now,
        received: {
          functionalId: group.functionalId,
          groupControlNumber: group.controlNumber,
          implementationReference: '005010X221A1',
        },
        sets: group.transactions.map((set) => ({
          transactionSetId: set.id,
          controlNumber: set.controlNumber,
          status: 'A' as const,
        })),
      }),
    );
  }
  return acks;
}
