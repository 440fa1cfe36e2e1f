// The one way an 835 enters the platform: the ERA webhook, the staff upload, the sandbox clearinghouse and the ERA
// retrieval from the live clearinghouse (retrieve-remittances.ts) all call ingestRemittance (DECISIONS "Money
// in"). The interchange is read and balanced (lib/x12/read-835.ts), every 835 must have a CLP naming a claim of the
// clinic that was transmitted (resolve-claims.ts; the others are kept `unmatched` and post nowhere), and only then
// is anything written. The interchange's 835s then post in ONE database transaction (post-remittance.ts), so a
// refusal met while posting (a claim's totals out of bounds, no CLP a claim can take, another 835 reusing a trace
// number) posts nothing of the interchange either, as the upload's contract says. Posting stays a handful of
// set-based statements per chunk of CLPs, so one transaction costs only the time the claims' locks are held, not
// memory. Idempotent on (clinic, payer id, TRN02): a copy, even one racing the first, answers with the first posting
// and `duplicate: true`.
import type { Db, Prisma } from '../db';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import { X12ControlCharacterError } from '../x12/control-characters';
import { scan835s, type Scanned835 } from '../x12/read-835';
import { X12ReadError } from '../x12/x12-read-error';
import type { X12Text } from '../x12/x12-text';
import { postRemittance, type PostedRemittance } from './post-remittance';
import { resolveClaims } from './resolve-claims';

export type RemittanceSource = 'webhook' | 'upload' | 'sandbox' | 'clearinghouse';

export type IngestInput = {
  clinicId: string;
  /** The interchange exactly as received: stored as is with each of its 835s. */
  x12: X12Text;
  source: RemittanceSource;
  correlationId: string;
  /**
   * Told the CLPs of the interchange posted so far (duplicates included), after each 835 is posted inside the
   * interchange's transaction (committed only once the last one is), so a background posting can show its
   * progress; awaited before the next one starts.
   */
  onProgress?: (p: { claimsPosted: number; claimsTotal: number }) => Promise<void>;
  /** CLPs posted at a time inside the interchange's transaction (post-remittance.ts POSTING_CHUNK_SIZE by default). */
  chunkSize?: number;
};

export type IngestResult = {
  /** One per 835 of the interchange, in file order. */
  remittances: PostedRemittance[];
};

/**
 * A read, checked interchange: what posting needs, computed before any write. Each 835 is kept as its header and
 * claim ids only; posting reads its claims again from the text a chunk at a time, so a 64 MiB file's hundreds of
 * thousands of claims are never all held at once.
 */
export type CheckedInterchange = { remittances: Scanned835[] };

/**
 * Reads the interchange and checks everything that does not need a write: readable, balanced, not empty, and each
 * 835 with at least one CLP naming a transmitted claim of the clinic.
 * @throws UNPROCESSABLE (422) with the reason; nothing is written.
 */
export async function checkInterchange(
  db: Db | Prisma.TransactionClient,
  input: { clinicId: string; x12: X12Text },
): Promise<CheckedInterchange> {
  let read: Scanned835[];
  try {
    read = scan835s(input.x12);
  } catch (error) {
    // A control character is bad input, not a bad 835 (DECISIONS "Security findings of 2026-11-28"): 400.
    if (error instanceof X12ControlCharacterError) {
      const message = `The 835 cannot be read: ${error.message}`;
      throw new AppError('VALIDATION_FAILED', message, { issues: [{ path: 'x12', message }] });
    }
    if (error instanceof X12ReadError)
      throw new AppError('UNPROCESSABLE', `The 835 cannot be posted: ${error.message}`);
    throw error;
  }
  await resolveClaims(db, input.clinicId, read);
  return { remittances: read };
}

/**
 * Posting is a handful of set-based statements per chunk of CLPs (post-remittance.ts), so its time grows only with
 * the rows written: a minute, plus 10 ms a claim of the interchange (ten times what a loaded machine was measured
 * to need), at most 15 minutes.
 */
function postingTimeoutMs(claimCount: number): number {
  return Math.min(15 * 60_000, 60_000 + claimCount * 10);
}

/**
 * Posts every 835 of the interchange for the clinic, in one transaction.
 * @throws UNPROCESSABLE (422) for an unreadable, empty or unbalanced 835, one with no CLP naming a transmitted
 *   claim of the clinic or none its claim can take, or one reusing the payer id and TRN02 of another 835;
 *   VALIDATION_FAILED (400) for one holding a control character; nothing of the interchange is posted then.
 */
export async function ingestRemittance(deps: Pick<Deps, 'db' | 'clock'>, input: IngestInput): Promise<IngestResult> {
  const checked = await checkInterchange(deps.db, input);
  const claimsTotal = checked.remittances.reduce((total, remittance) => total + remittance.claimCount, 0);
  return deps.db.$transaction(
    async (tx) => {
      const posted: PostedRemittance[] = [];
      let claimsPosted = 0;
      for (const remittance of checked.remittances) {
        posted.push(await postRemittance(tx, { ...input, remittance, now: deps.clock() }));
        claimsPosted += remittance.claimCount;
        await input.onProgress?.({ claimsPosted, claimsTotal });
      }
      return { remittances: posted };
    },
    { maxWait: 15_000, timeout: postingTimeoutMs(claimsTotal) },
  );
}
