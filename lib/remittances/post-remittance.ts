// Posts one read, balanced 835 inside the caller's database transaction (DECISIONS "Money in"). The Remittance row
// goes first, under its unique (clinic, payer id, TRN02): a copy of the 835, even one racing this transaction,
// waits on that row and then finds it, and answers with the first posting having written nothing; another 835
// under the same payer id and TRN02 (its content differs: content-digest.ts) is refused (422), never taken for a
// copy, since its claims would silently never post. The claims the 835 names are locked, which CLPs may post is
// decided under the locks (resolve-claims.ts), the bills they move are locked, and the claims, their
// charge bookings and bills are read once. What every CLP posts is then decided in memory, in file order, so a
// reversal posts before the corrected claim that follows it (plan-posting.ts: charge, ledger, bill, lines, state,
// timeline, transmission, RemittanceClaim; a CLP naming no transmitted claim of the clinic is kept `unmatched`), a
// chunk of CLPs at a time, read again from the 835's text (the check before kept only its claim ids), with each
// claim's running state carried forward, and each chunk written in a handful of set-based statements
// (write-posting.ts) and dropped: memory holds one chunk, and round trips grow with the chunks, not the CLPs. The
// claims' totals and bills are written once, after the last chunk. An 835 none of whose CLPs can post is refused
// (422) and writes nothing. Then, when the deposit is already there, reassociation.
import { randomUUID } from 'node:crypto';
import type { Prisma } from '../db';
import { centsToNumber } from '../money/cents-to-number';
import { AppError } from '../errors';
import { scan835s, type Scanned835 } from '../x12/read-835';
import { textOf, type X12Text } from '../x12/x12-text';
import { CLAIM_CHARGE_KIND, claimChargeReference } from './book-claim-charge';
import { finishPlan, nothingPosted, planChunk, startPlan, type PostingBill } from './plan-posting';
import { contentDigest } from './content-digest';
import { claimsWithRemarks } from './read-remarks';
import { reassociate } from './reassociate';
import { recordEvent, recordEvents } from '../events/record-event';
import { claimOutcomeEvent } from './record-claim-outcome-event';
import { matchClaims, nothingToPost } from './resolve-claims';
import type { RemittanceSource } from './ingest-remittance';
import { startBatch, writeChunk, writeFinish } from './write-posting';

export type PostedRemittance = {
  remittanceId: string;
  payerId: string;
  traceNumber: string;
  paymentCents: number;
  /** True when this (payer id, TRN02) was already posted for the clinic: nothing was written. */
  duplicate: boolean;
  /** The CLPs posted to their claims. */
  claimsPosted: number;
  /** The CLPs kept as `unmatched`: they name no claim of the clinic that was sent, and posted nowhere. */
  claimsUnmatched: number;
};

export type PostRemittanceInput = {
  clinicId: string;
  x12: X12Text;
  source: RemittanceSource;
  correlationId: string;
  /** The 835 as checked (scan835s): its claims are read again from `x12` a chunk at a time. */
  remittance: Scanned835;
  now: Date;
  /** CLPs planned and written at a time (POSTING_CHUNK_SIZE unless a test needs an 835 to span several chunks). */
  chunkSize?: number;
};

/**
 * CLPs per chunk: each chunk's claims are read from the text, planned, written and dropped before the next, so what
 * a posting holds beyond the 835's text is one chunk and the per-claim running state. Measured (bench era-post):
 * 1,000 a chunk let each chunk's objects outlive the young generation and piled up old garbage (rssGrowthMb 106);
 * 250 gave 93, 100 gave 87-90, at ~0.1 ms a claim more of round trips.
 */
export const POSTING_CHUNK_SIZE = 100;

const chargedClaimId = (t: { reference: string }) => t.reference.slice('claim:'.length);

/** The Remittance row; `x12` is the SQL expression of the interchange's text (a parameter, or the staged pieces). */
const insertRemittance = (x12: string) => `INSERT INTO "Remittance" ("id", "clinicId", "payerId", "payerName",
    "payeeNpi", "traceNumber", "paymentMethod", "paymentCents", "paymentDate", "providerAdjustments", "source", "x12",
    "correlationId", "createdAt")
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8::bigint, $9, $10::jsonb, $11, ${x12}, $12, $13)
  ON CONFLICT ("clinicId", "payerId", "traceNumber") DO NOTHING RETURNING "id"`;

/**
 * Characters of the interchange bound in one parameter. A larger text is staged in pieces and joined by
 * PostgreSQL: one 50 MiB parameter costs the pg driver a write buffer grown past the text's size, then a copy,
 * on top of the text itself, and 1 MiB pieces still left their serialisations in V8's large-object space, freed
 * only by a full collection (measured by bench era-post's rssGrowthMb); 64 KiB pieces die young.
 */
const X12_PIECE_CHARS = 64 * 1024;
const STAGED_X12 = `(SELECT string_agg("piece", '' ORDER BY "n") FROM "remittance_x12")`;

/** The interchange's text for the statements: bound as one parameter when it fits one piece, else staged. */
type StoredX12 = { params: string[] };

/** The SQL expression of the interchange's text in a statement whose parameter at `position` would bind it. */
const x12Sql = (x12: StoredX12, position: number) => (x12.params.length > 0 ? `$${position}` : STAGED_X12);

async function storedX12(tx: Prisma.TransactionClient, x12: X12Text): Promise<StoredX12> {
  if (x12.length <= X12_PIECE_CHARS) return { params: [textOf(x12)] };
  // Dropped at the end of the posting (and at commit whatever happens): two 835s of one delivery share a transaction.
  await tx.$executeRawUnsafe(`CREATE TEMP TABLE "remittance_x12" ("n" int, "piece" text) ON COMMIT DROP`);
  let n = 0;
  for (const piece of textPieces(x12, X12_PIECE_CHARS)) {
    await tx.$executeRawUnsafe(`INSERT INTO "remittance_x12" VALUES ($1, $2)`, n++, piece);
  }
  return { params: [] };
}

/**
 * The text in pieces of at most `size` characters, never cut between the halves of a surrogate pair: each piece
 * goes to PostgreSQL as UTF-8 text of its own.
 */
export function* textPieces(text: X12Text, size: number): Generator<string> {
  for (let from = 0; from < text.length;) {
    let to = Math.min(from + size, text.length);
    if (to < text.length && to - from > 1 && (text.charCodeAt(to - 1) & 0xfc00) === 0xd800) to--;
    yield text.slice(from, to);
    from = to;
  }
}

// The claims this 835 names, locked for the rest of the transaction in a fixed order (no deadlock between two
// 835s naming the same claims), so their running totals are read and written by one posting at a time.
const LOCK_CLAIMS = `SELECT "id" FROM "Claim" WHERE "clinicId" = $1 AND "id" = ANY($2::text[]) ORDER BY "id" FOR UPDATE`;
// The claims' own bills, and for a secondary claim its primary's bill (what the secondary pays comes off it), locked
// in a fixed order for the rest of the transaction: a patient's payment (lib/webhooks/record-payment.ts) committing
// meanwhile waits, so the bills' paid amounts read here stay true until the posting writes each bill's amount and
// the status that follows from them (and what a secondary payment may take off a bill). DISTINCT ON cannot carry
// FOR UPDATE, so it picks the first bill of each claim in a subquery.
const FIRST_BILLS = `SELECT "id", "claimId", "patientId", "amountCents", "paidCents" FROM "PatientBill"
  WHERE "id" IN (SELECT DISTINCT ON ("claimId") "id" FROM "PatientBill"
    WHERE "clinicId" = $1 AND "claimId" IN (SELECT unnest($2::text[]) UNION SELECT "primaryClaimId" FROM "Claim"
      WHERE "clinicId" = $1 AND "id" = ANY($2::text[]) AND "primaryClaimId" IS NOT NULL)
    ORDER BY "claimId", "createdAt", "id")
  ORDER BY "id" FOR UPDATE`;
// What the claims' earlier later-payer CLPs left unapplied (plan-posting.ts writes it on their timeline events), so a
// reversal takes it back first.
const UNAPPLIED = `SELECT "claimId", SUM(("detail" ->> 'unappliedCents')::bigint)::bigint AS "cents" FROM "ClaimEvent"
  WHERE "clinicId" = $1 AND "claimId" = ANY($2::text[]) AND "kind" IN ('payment', 'reversal')
    AND ("detail" ->> 'unappliedCents') IS NOT NULL
  GROUP BY "claimId"`;

// The posting a copy answers with: a re-sent interchange is the same text (compared where it lies, nothing fetched).
const FIRST_POSTING = (x12: string) => `SELECT "id", "x12" = ${x12} AS "sameText" FROM "Remittance"
  WHERE "clinicId" = $1 AND "payerId" = $2 AND "traceNumber" = $3`;

const newId = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;

/**
 * @throws UNPROCESSABLE (422) when a claim's running totals or the patient's bill would leave their bounds, when no
 *   CLP of the 835 can post to its claim, or when another 835 was posted under its payer id and TRN02.
 */
export async function postRemittance(
  tx: Prisma.TransactionClient,
  input: PostRemittanceInput,
): Promise<PostedRemittance> {
  const { clinicId, remittance, correlationId, now } = input;
  const summary = {
    payerId: remittance.payerId,
    traceNumber: remittance.traceNumber,
    paymentCents: remittance.paymentCents,
  };
  const x12 = await storedX12(tx, input.x12);
  const inserted = await tx.$queryRawUnsafe<{ id: string }[]>(
    insertRemittance(x12Sql(x12, 14)),
    newId('rem'),
    clinicId,
    remittance.payerId,
    remittance.payerName,
    remittance.payeeNpi,
    remittance.traceNumber,
    remittance.paymentMethod,
    BigInt(remittance.paymentCents),
    remittance.paymentDate,
    JSON.stringify(remittance.providerAdjustments),
    input.source,
    correlationId,
    now,
    ...x12.params,
  );
  const remittanceId = inserted[0]?.id;
  if (!remittanceId) {
    const [found] = await tx.$queryRawUnsafe<{ id: string; sameText: boolean }[]>(
      FIRST_POSTING(x12Sql(x12, 4)),
      clinicId,
      remittance.payerId,
      remittance.traceNumber,
      ...x12.params,
    );
    if (x12.params.length === 0) await tx.$executeRawUnsafe(`DROP TABLE "remittance_x12"`);
    if (!found!.sameText) await assertSameContent(tx, found!.id, input.x12, remittance);
    const first = await tx.remittance.findUniqueOrThrow({
      where: { id: found!.id },
      select: { id: true, paymentCents: true, claims: { select: { posting: true } } },
    });
    const unmatched = first.claims.filter((claim) => claim.posting === 'unmatched').length;
    return {
      ...summary,
      remittanceId: first.id,
      paymentCents: centsToNumber(first.paymentCents),
      duplicate: true,
      claimsPosted: first.claims.length - unmatched,
      claimsUnmatched: unmatched,
    };
  }
  if (x12.params.length === 0) await tx.$executeRawUnsafe(`DROP TABLE "remittance_x12"`);

  const namedIds = remittance.claimIds;
  await tx.$queryRawUnsafe<{ id: string }[]>(LOCK_CLAIMS, clinicId, namedIds);
  // Decided under the locks, so a claim cannot change state between this check and its posting.
  const reasons = await matchClaims(tx, clinicId, namedIds);
  const claimIds = namedIds.filter((id) => reasons.get(id) === null);
  if (claimIds.length === 0) throw nothingToPost(namedIds, reasons);
  // Everything the plan starts from, read once for the whole 835 in four statements.
  const [claims, charged, bills, unapplied] = await Promise.all([
    tx.claim.findMany({
      where: { clinicId, id: { in: claimIds } },
      select: {
        id: true,
        patientId: true,
        totalChargeCents: true,
        status: true,
        paidCents: true,
        patientResponsibilityCents: true,
        adjustmentCents: true,
        payerRank: true,
        primaryClaimId: true,
        lines: {
          select: { id: true, position: true, procedureCode: true, modifiers: true },
          orderBy: { position: 'asc' },
        },
      },
    }),
    tx.ledgerTransaction.findMany({
      where: { clinicId, kind: CLAIM_CHARGE_KIND, reference: { in: claimIds.map(claimChargeReference) } },
      select: { reference: true },
    }),
    // The first bill raised for each claim is the one PR moves to.
    tx.$queryRawUnsafe<PostingBill[]>(FIRST_BILLS, clinicId, claimIds),
    tx.$queryRawUnsafe<{ claimId: string; cents: bigint }[]>(UNAPPLIED, clinicId, claimIds),
  ]);
  const state = startPlan({
    ...input,
    remittanceId,
    reasons,
    claims,
    charged: new Set(charged.map(chargedClaimId)),
    bills,
    unapplied: new Map(unapplied.map((row) => [row.claimId, BigInt(row.cents)])),
  });
  const batch = await startBatch(tx, {
    clinicId,
    remittanceId,
    traceNumber: remittance.traceNumber,
    correlationId,
    now,
  });
  let unmatched = 0;
  let first = 0;
  for (const chunk of chunksOf(claimsWithRemarks(input.x12, remittance), input.chunkSize ?? POSTING_CHUNK_SIZE)) {
    const plan = planChunk(state, { claims: chunk, firstPosition: first + 1 });
    await writeChunk(tx, batch, plan);
    // plan.outcomes says what each CLP did: each posted one reports its claim's outcome to the events outbox.
    await recordEvents(
      tx,
      plan.outcomes.flatMap((o) => {
        // A crossover (plan-posting.ts) leaves the claim's state to its primary payer: it reports no outcome.
        if (o.posting !== 'posted' || o.outcome === null) return [];
        const { claim } = chunk[o.position - 1 - first]!;
        return claimOutcomeEvent({ clinicId, claimId: o.claimId, remittanceId, claim, correlationId, now }) ?? [];
      }),
    );
    unmatched += plan.outcomes.filter((o) => o.posting === 'unmatched').length;
    first += chunk.length;
  }
  // Every CLP named a sent claim, and none could take its CLP: refused whole, as an 835 naming none (rolled back).
  if (state.posted.size === 0) throw nothingPosted(state);
  await writeFinish(tx, batch, finishPlan(state, remittance.providerAdjustments));
  await reassociate(tx, { clinicId, traceNumber: remittance.traceNumber, correlationId });
  await recordEvent(tx, {
    clinicId,
    type: 'remittance.posted',
    objectId: remittanceId,
    data: {
      remittanceId,
      paymentCents: remittance.paymentCents,
      claimCount: remittance.claimCount - unmatched,
      traceNumber: remittance.traceNumber,
    },
    correlationId,
    at: now,
  });
  return {
    ...summary,
    remittanceId,
    duplicate: false,
    claimsPosted: remittance.claimCount - unmatched,
    claimsUnmatched: unmatched,
  };
}

/**
 * An 835 under a payer id and TRN02 already posted, in another interchange text: a copy when its content is the
 * posted 835's (re-sent under other control numbers or line breaks), else another 835 reusing the trace number.
 * Reads the stored interchange (rare: a re-sent file is usually the same text, found without reading it).
 * @throws UNPROCESSABLE (422) when the content differs: nothing of the interchange is posted.
 */
async function assertSameContent(
  tx: Prisma.TransactionClient,
  remittanceId: string,
  x12: X12Text,
  remittance: Scanned835,
): Promise<void> {
  const stored = await tx.remittance.findUniqueOrThrow({ where: { id: remittanceId }, select: { x12: true } });
  const posted = scan835s(stored.x12).find(
    (r) => r.payerId === remittance.payerId && r.traceNumber === remittance.traceNumber,
  );
  if (posted && contentDigest(stored.x12, posted) === contentDigest(x12, remittance)) return;
  throw new AppError(
    'UNPROCESSABLE',
    `An 835 from payer ${JSON.stringify(remittance.payerId)} with trace number (TRN02) ` +
      `${JSON.stringify(remittance.traceNumber)} was posted before with different content; nothing was posted ` +
      '(a corrected remittance carries a trace number of its own)',
  );
}

/** The items `count` at a time, the last chunk shorter; nothing is read ahead of the chunk being handed out. */
function* chunksOf<T>(items: Iterable<T>, count: number): Generator<T[]> {
  let chunk: T[] = [];
  for (const item of items) {
    chunk.push(item);
    if (chunk.length === count) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}
