// X12 control numbers (ISA13/GS06) for what we send, from X12ControlCounter: one statement that creates the
// counter on first use and moves it on, so two instances never hand out the same number. A claim submit takes its
// number inside the transaction that records the 837P (lib/claims/submit-claim.ts), so the sequence advances only
// for documents sent; ISA13 allows 1..999999999, so the sequence wraps there.
import type { Db, Prisma } from '../db';

const MAX_CONTROL_NUMBER = 999_999_999;

const TAKE = `INSERT INTO "X12ControlCounter" ("name", "value") VALUES ($1, 1)
  ON CONFLICT ("name") DO UPDATE SET "value" = "X12ControlCounter"."value" + 1
  RETURNING "value"`;

/** The next control number of the named sequence ('837P', '276'), 1..999999999. */
export async function takeControlNumber(db: Db | Prisma.TransactionClient, name: string): Promise<number> {
  const rows = await db.$queryRawUnsafe<Array<{ value: bigint }>>(TAKE, name);
  return Number((rows[0]!.value - 1n) % BigInt(MAX_CONTROL_NUMBER)) + 1;
}
