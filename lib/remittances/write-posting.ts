// Writes a posting plan (plan-posting.ts) in a handful of set-based statements inside the caller's transaction: per
// chunk of CLPs the ledger in two, the remittance's list of its transactions, and the timeline events,
// transmissions and remittance rows in one insert each; once at the end the PLB, the claims in one update, the claim
// lines in one and the bills in two. Each statement's rows travel as ONE JSON text parameter, turned back into rows by
// `json_to_recordset`: measured on a 5,000-claim 835, the ORM's multi-row inserts, and even array parameters (each
// element crosses the ORM's query layer), cost seconds of CPU, where one string crosses it at once
// (docs/decisions.md, issue #26).
import { randomUUID } from 'node:crypto';
import type { Prisma } from '../db';
import { postLedgerTransactions } from '../ledger/post-ledger-transaction';
import type { ChunkPlan, FinalPlan, PlannedLedgerTransaction } from './plan-posting';

// statusReason is written only where a CLP decided it (set_reason); the claim keeps its reason otherwise.
const UPDATE_CLAIMS = `UPDATE "Claim" AS c SET "paidCents" = u.paid, "patientResponsibilityCents" = u.patient,
    "adjustmentCents" = u.adjustment, "status" = u.status,
    "statusReason" = CASE WHEN u.set_reason THEN u.reason ELSE c."statusReason" END,
    "payerClaimId" = COALESCE(u.payer_claim_id, c."payerClaimId"), "updatedAt" = $2
  FROM json_to_recordset($3::json)
    AS u(id text, paid bigint, patient bigint, adjustment bigint, status text, set_reason boolean, reason text,
      payer_claim_id text)
  WHERE c."id" = u.id AND c."clinicId" = $1`;
const PAY_LINES = `UPDATE "ClaimLine" AS l SET "paidCents" = l."paidCents" + u.paid
  FROM json_to_recordset($2::json) AS u(id text, paid bigint) WHERE l."id" = u.id AND l."clinicId" = $1`;
const NEW_BILLS = `INSERT INTO "PatientBill" ("id", "clinicId", "patientId", "claimId", "amountCents", "status", "createdAt", "updatedAt")
  SELECT u.id, $1, u."patientId", u."claimId", u."amountCents", u.status, $2, $2
  FROM json_to_recordset($3::json) AS u(id text, "patientId" text, "claimId" text, "amountCents" int, status text)`;
const CHANGE_BILLS = `UPDATE "PatientBill" AS b SET "amountCents" = u."amountCents", "status" = u.status, "updatedAt" = $2
  FROM json_to_recordset($3::json) AS u(id text, "amountCents" int, status text) WHERE b."id" = u.id AND b."clinicId" = $1`;
// Row ids are the batch's id and the row's position, zero-padded: unique, and in file order when sorted (a claim's
// reversal and its corrected payment share a timestamp, so a tie-break on id keeps their order).
// A chunk's rows number on from the rows the chunks before it wrote ($offset), so the ids of one posting's rows keep
// file order across its chunks.
const rowId = (batchParameter: string, offsetParameter: string) =>
  `${batchParameter} || lpad((${offsetParameter}::int + u.n)::text, 7, '0')`;
const INSERT_EVENTS = `INSERT INTO "ClaimEvent" ("id", "clinicId", "claimId", "kind", "fromStatus", "toStatus", "detail", "correlationId", "at")
  SELECT ${rowId('$4', '$6')}, $1, u."claimId", u.kind, u."fromStatus", u."toStatus", u.detail, $2, $3
  FROM ROWS FROM (json_to_recordset($5::json) AS ("claimId" text, kind text, "fromStatus" text, "toStatus" text, detail jsonb)) WITH ORDINALITY
    AS u("claimId", kind, "fromStatus", "toStatus", detail, n)`;
const INSERT_TRANSMISSIONS = `INSERT INTO "ClaimTransmission" ("id", "clinicId", "claimId", "direction", "kind", "controlNumber", "x12", "correlationId", "at")
  SELECT ${rowId('$5', '$7')}, $1, u."claimId", 'in', '835', $4, u.x12, $2, $3
  FROM ROWS FROM (json_to_recordset($6::json) AS ("claimId" text, x12 text)) WITH ORDINALITY
    AS u("claimId", x12, n)`;
const INSERT_REMITTANCE_CLAIMS = `INSERT INTO "RemittanceClaim" ("id", "remittanceId", "clinicId", "claimId", "position",
    "payerClaimId", "statusCode", "chargeCents", "paidCents", "patientResponsibilityCents", "adjustments", "lines",
    "posting", "unmatchedReason")
  SELECT ${rowId('$3', '$5')}, $2, $1, u."claimId", u.position, u."payerClaimId", u."statusCode", u."chargeCents",
    u."paidCents", u."patientResponsibilityCents", u.adjustments, u.lines, u.posting, u."unmatchedReason"
  FROM ROWS FROM (json_to_recordset($4::json) AS ("claimId" text, position int, "payerClaimId" text, "statusCode" text, "chargeCents" bigint, "paidCents" bigint, "patientResponsibilityCents" bigint, adjustments jsonb, lines jsonb, posting text, "unmatchedReason" text)) WITH ORDINALITY
    AS u("claimId", position, "payerClaimId", "statusCode", "chargeCents", "paidCents", "patientResponsibilityCents", adjustments, lines, posting, "unmatchedReason", n)`;

// The remittance's list of its transactions, in file order (then the PLB's): each chunk adds its ids to a temporary
// table and the list is written once at the end. Appending to the array itself chunk by chunk rewrote the whole
// growing list every time: a 280,000-CLP 835 spent minutes there (quadratic in its chunks).
const STAGE_LEDGER_TABLE = `CREATE TEMP TABLE "remittance_ledger" ("n" bigserial, "id" text) ON COMMIT DROP`;
const STAGE_LEDGER = `INSERT INTO "remittance_ledger" ("id")
  SELECT u.id FROM json_array_elements_text($1::json) WITH ORDINALITY AS u(id, n) ORDER BY u.n`;
const LIST_LEDGER = `UPDATE "Remittance"
  SET "ledgerTransactionIds" = "ledgerTransactionIds" || ARRAY(SELECT "id" FROM "remittance_ledger" ORDER BY "n")
  WHERE "id" = $1`;
// Dropped once written: two 835s of one delivery post in one transaction.
const DROP_STAGED_LEDGER = `DROP TABLE "remittance_ledger"`;

const batchId = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}_`;

/** Rows as one JSON text; bigint cents as JSON numbers' digits (exact: PostgreSQL reads them as bigint). */
const rowsJson = (rows: readonly object[]) =>
  JSON.stringify(rows, (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));

/** What every chunk of one posting shares: the batch ids its rows number under, and how many each table has. */
export type PostingBatch = {
  clinicId: string;
  remittanceId: string;
  traceNumber: string;
  correlationId: string;
  now: Date;
  ids: { events: string; transmissions: string; remittanceClaims: string };
  written: { events: number; transmissions: number; remittanceClaims: number };
};

/** Opens one posting's batch: its ids, and the table its ledger list is staged in until writeFinish. */
export async function startBatch(
  tx: Prisma.TransactionClient,
  common: Omit<PostingBatch, 'ids' | 'written'>,
): Promise<PostingBatch> {
  await tx.$executeRawUnsafe(STAGE_LEDGER_TABLE);
  return {
    ...common,
    ids: { events: batchId('cev'), transmissions: batchId('ctx'), remittanceClaims: batchId('rcl') },
    written: { events: 0, transmissions: 0, remittanceClaims: 0 },
  };
}

async function writeLedger(tx: Prisma.TransactionClient, batch: PostingBatch, ledger: PlannedLedgerTransaction[]) {
  if (ledger.length === 0) return;
  const { clinicId, correlationId, now } = batch;
  await postLedgerTransactions(tx, { clinicId, correlationId, postedAt: now }, ledger);
  await tx.$executeRawUnsafe(STAGE_LEDGER, JSON.stringify(ledger.map((t) => t.id)));
}

/**
 * One table's rows of a chunk: the statement takes `leading` parameters, then the batch's id for the table, the rows
 * and how many rows the chunks before wrote (the ids number on from there).
 */
async function insertNumbered(
  tx: Prisma.TransactionClient,
  batch: PostingBatch,
  table: keyof PostingBatch['written'],
  sql: string,
  leading: unknown[],
  rows: readonly object[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.$executeRawUnsafe(sql, ...leading, batch.ids[table], rowsJson(rows), batch.written[table]);
  batch.written[table] += rows.length;
}

/** Writes one chunk's ledger, timeline, transmissions and remittance rows. */
export async function writeChunk(tx: Prisma.TransactionClient, batch: PostingBatch, plan: ChunkPlan): Promise<void> {
  const { clinicId, correlationId, now } = batch;
  await writeLedger(tx, batch, plan.ledger);
  await insertNumbered(tx, batch, 'events', INSERT_EVENTS, [clinicId, correlationId, now], plan.events);
  const transmissionsLeading = [clinicId, correlationId, now, batch.traceNumber];
  await insertNumbered(tx, batch, 'transmissions', INSERT_TRANSMISSIONS, transmissionsLeading, plan.transmissions);
  const remittanceLeading = [clinicId, batch.remittanceId];
  await insertNumbered(
    tx,
    batch,
    'remittanceClaims',
    INSERT_REMITTANCE_CLAIMS,
    remittanceLeading,
    plan.remittanceClaims,
  );
}

/** Writes the posting's closing rows once every chunk is written: the PLB, the claims, their lines, the bills. */
export async function writeFinish(tx: Prisma.TransactionClient, batch: PostingBatch, plan: FinalPlan): Promise<void> {
  const { clinicId, now } = batch;
  await writeLedger(tx, batch, plan.ledger);
  await tx.$executeRawUnsafe(LIST_LEDGER, batch.remittanceId);
  await tx.$executeRawUnsafe(DROP_STAGED_LEDGER);
  const { claims, newBills, changedBills } = plan;
  if (claims.length > 0) {
    const rows = claims.map((c) => ({
      id: c.id,
      paid: c.paidCents,
      patient: c.patientResponsibilityCents,
      adjustment: c.adjustmentCents,
      status: c.status,
      set_reason: c.statusReason !== undefined,
      reason: c.statusReason ?? null,
      payer_claim_id: c.payerClaimId,
    }));
    await tx.$executeRawUnsafe(UPDATE_CLAIMS, clinicId, now, rowsJson(rows));
  }
  if (plan.linePayments.size > 0) {
    const rows = [...plan.linePayments].map(([id, paid]) => ({ id, paid }));
    await tx.$executeRawUnsafe(PAY_LINES, clinicId, rowsJson(rows));
  }
  if (newBills.length > 0) await tx.$executeRawUnsafe(NEW_BILLS, clinicId, now, rowsJson(newBills));
  if (changedBills.length > 0) await tx.$executeRawUnsafe(CHANGE_BILLS, clinicId, now, rowsJson(changedBills));
}
