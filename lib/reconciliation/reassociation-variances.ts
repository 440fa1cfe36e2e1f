// The ERA ↔ deposit side of nightly reconciliation (DECISIONS "Money in"): per (clinic, trace), what the posted
// 835s say was paid (BPR02, positive payments only) against what the bank credited under that railReference,
// everything known when the job runs (re-running an old day sees ERAs that arrived since), aged against the
// reconciled day. Three kinds of variance, each reported once its own date is on or before that day:
//   era_without_deposit: an ERA whose deposit has not arrived 3 business days after its payment date (BPR16);
//   deposit_without_era: a credit whose ERA has not arrived 3 business days after it was posted;
//   amount_mismatch: both are there and the amounts disagree (raised at once: waiting cannot fix it).
// Each is keyed by its own date (the ERA's payment date, the deposit's day in the clinic's calendar) and reference,
// so re-running any day rewrites the same row, and a row whose pair has since matched is removed.
import type { Db, Prisma } from '../db';
import { addBusinessDays } from './business-days';

export const REASSOCIATION_KINDS = ['era_without_deposit', 'deposit_without_era', 'amount_mismatch'] as const;
export type ReassociationKind = (typeof REASSOCIATION_KINDS)[number];

export type ReassociationVariance = {
  clinicId: string;
  kind: ReassociationKind;
  reference: string;
  day: string;
  eraCents: bigint | null;
  depositCents: bigint | null;
};

export const REASSOCIATION_WAIT_BUSINESS_DAYS = 3;

const PAIRS = `WITH era AS (
    SELECT "clinicId", "traceNumber" AS ref, SUM("paymentCents")::bigint AS cents, MIN("paymentDate") AS day
    FROM "Remittance" WHERE "paymentCents" > 0 AND ($1::text IS NULL OR "clinicId" = $1) GROUP BY 1, 2
  ), dep AS (
    SELECT p."clinicId", p."railReference" AS ref, SUM(p."amountCents")::bigint AS cents,
      MIN(to_char((p."postedAt" AT TIME ZONE 'UTC') AT TIME ZONE c."timeZone", 'YYYY-MM-DD')) AS day
    FROM "RailPosting" p JOIN "Clinic" c ON c."id" = p."clinicId"
    WHERE p."direction" = 'credit' AND ($1::text IS NULL OR p."clinicId" = $1) GROUP BY 1, 2
  )
  SELECT COALESCE(era."clinicId", dep."clinicId") AS "clinicId", COALESCE(era.ref, dep.ref) AS reference,
    era.cents AS "eraCents", dep.cents AS "depositCents", era.day AS "eraDay", dep.day AS "depositDay"
  FROM era FULL OUTER JOIN dep ON era."clinicId" = dep."clinicId" AND era.ref = dep.ref
  WHERE era.cents IS NULL OR dep.cents IS NULL OR era.cents <> dep.cents`;

type Pair = {
  clinicId: string;
  reference: string;
  eraCents: bigint | null;
  depositCents: bigint | null;
  eraDay: string | null;
  depositDay: string | null;
};

/** Every unmatched pair, whatever its age, of every clinic or of one (the screens' waiting pairs and counts). */
export async function findUnmatchedPairs(
  tx: Prisma.TransactionClient | Db,
  clinicId?: string,
): Promise<ReassociationVariance[]> {
  const pairs = await tx.$queryRawUnsafe<Pair[]>(PAIRS, clinicId ?? null);
  return pairs.map((pair): ReassociationVariance => {
    const eraCents = pair.eraCents === null ? null : BigInt(pair.eraCents);
    const depositCents = pair.depositCents === null ? null : BigInt(pair.depositCents);
    const kind: ReassociationKind =
      eraCents === null ? 'deposit_without_era' : depositCents === null ? 'era_without_deposit' : 'amount_mismatch';
    // The side the pair has: an ERA without its deposit is dated by the ERA, the others by their deposit.
    const day = (kind === 'era_without_deposit' ? pair.eraDay : pair.depositDay)!;
    return { clinicId: pair.clinicId, kind, reference: pair.reference, day, eraCents, depositCents };
  });
}

/** Every unmatched pair (`open`) and those old enough to report on `day` (`due`), of every clinic or of one. */
export async function findReassociationVariances(
  tx: Prisma.TransactionClient | Db,
  input: { day: string; clinicId?: string },
): Promise<{ open: ReassociationVariance[]; due: ReassociationVariance[] }> {
  const open = await findUnmatchedPairs(tx, input.clinicId);
  const due = open.filter((v) =>
    v.kind === 'amount_mismatch'
      ? v.day <= input.day
      : addBusinessDays(v.day, REASSOCIATION_WAIT_BUSINESS_DAYS) <= input.day,
  );
  return { open, due };
}
