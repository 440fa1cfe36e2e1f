// Payer-scale posting against a real PostgreSQL database (issue #26): a 5,000-claim 835 posts in one transaction
// with the ledger balanced per claim, and a failure mid-posting leaves nothing of it (the posting's statements roll
// back together), after which the same 835 posts exactly once.
import { describe, expect, it } from 'vitest';
import { setUpTwoClinicDb } from '@/test/support/test-db';
import { largeClaimSet, largeRemittance, largeX12, seedClaims } from '@/test/support/large-835';
import { ingestRemittance } from './ingest-remittance';

const handle = setUpTwoClinicDb();
const clock = () => new Date('2026-11-23T12:00:00Z');
const ingest = (clinicId: string, x12: string, chunkSize?: number) =>
  ingestRemittance({ db: handle.db, clock }, { clinicId, x12, source: 'upload', correlationId: 'scale', chunkSize });

async function ledgerOf(clinicId: string) {
  return handle.db.$queryRawUnsafe<{ kind: string; account: string; cents: string; transactions: number }[]>(
    `SELECT t."kind", e."account", SUM(e."amountCents")::text AS cents, COUNT(DISTINCT t."id")::int AS transactions
     FROM "LedgerTransaction" t JOIN "LedgerEntry" e ON e."transactionId" = t."id"
     WHERE t."clinicId" = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
    clinicId,
  );
}

describe('payer-scale posting', () => {
  it('posts a 5,000-claim 835 once: a charge and a balanced posting per claim, era-clearing holding BPR02', async () => {
    const { north, db } = handle;
    const claims = largeClaimSet('clm_scale', 5_000);
    await seedClaims(db, north.clinicId, claims);
    const remittance = largeRemittance(claims, { traceNumber: 'SCALE1' });
    const x12 = largeX12(remittance);

    const [posted] = (await ingest(north.clinicId, x12)).remittances;
    expect(posted).toMatchObject({ duplicate: false, claimsPosted: 5_000, claimsUnmatched: 0 });
    const ledger = await ledgerOf(north.clinicId);
    const era = ledger.filter((row) => row.account === 'assets:era-clearing');
    expect(era.reduce((t, row) => t + BigInt(row.cents), 0n)).toBe(BigInt(remittance.paymentCents));
    expect(ledger.find((row) => row.kind === 'claim.charge')?.transactions).toBe(5_000);
    expect(ledger.find((row) => row.kind === 'remittance.claim')?.transactions).toBe(5_000);
    const unbalanced = await db.$queryRawUnsafe<unknown[]>(
      `SELECT 1 FROM "LedgerEntry" GROUP BY "transactionId" HAVING SUM("amountCents") <> 0`,
    );
    expect(unbalanced).toEqual([]);
    expect(await db.claim.count({ where: { clinicId: north.clinicId, status: 'paid' } })).toBe(5_000);
    expect(await db.claimEvent.count({ where: { clinicId: north.clinicId } })).toBe(5_000);
    expect(await db.patientBill.count({ where: { clinicId: north.clinicId } })).toBe(2_500);

    const again = (await ingest(north.clinicId, x12)).remittances[0];
    expect(again).toEqual({ ...posted, duplicate: true });
    expect(await ledgerOf(north.clinicId)).toEqual(ledger);
  }, 120_000);

  it('leaves nothing posted when a later chunk of the posting fails, and posts the 835 once when retried', async () => {
    const { south, db } = handle;
    const claims = largeClaimSet('clm_crash', 600);
    await seedClaims(db, south.clinicId, claims);
    const x12 = largeX12(largeRemittance(claims, { traceNumber: 'CRASH1' }));
    // A fault in the sixth chunk of 100 CLPs (its RemittanceClaim rows, its last statement): five chunks' ledger,
    // events, transmissions and remittance rows are written by then, in the same transaction.
    await db.$executeRawUnsafe(`CREATE FUNCTION fail_remittance_claim() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'injected fault at CLP %', NEW."position"; END; $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(`CREATE TRIGGER fail_remittance_claim BEFORE INSERT ON "RemittanceClaim"
      FOR EACH ROW WHEN (NEW."position" = 501) EXECUTE FUNCTION fail_remittance_claim()`);
    try {
      await expect(ingest(south.clinicId, x12, 100)).rejects.toThrow(/injected fault at CLP 501/);
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER fail_remittance_claim ON "RemittanceClaim"`);
      await db.$executeRawUnsafe(`DROP FUNCTION fail_remittance_claim()`);
    }
    const clinicId = south.clinicId;
    expect(
      await Promise.all([
        db.remittance.count({ where: { clinicId } }),
        db.remittanceClaim.count({ where: { clinicId } }),
        db.ledgerTransaction.count({ where: { clinicId } }),
        db.claimEvent.count({ where: { clinicId } }),
        db.patientBill.count({ where: { clinicId } }),
        db.claim.count({ where: { clinicId, status: { not: 'submitted' } } }),
        db.claimLine.count({ where: { clinicId, paidCents: { not: 0n } } }),
      ]),
    ).toEqual([0, 0, 0, 0, 0, 0, 0]);

    const [posted] = (await ingest(clinicId, x12, 100)).remittances;
    expect(posted).toMatchObject({ duplicate: false, claimsPosted: 600 });
    // The chunks' rows number on across chunks: sorted by id they are in file order.
    const rows = await db.remittanceClaim.findMany({ where: { clinicId }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => r.position)).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
    expect((await ingest(clinicId, x12)).remittances[0]?.duplicate).toBe(true);
    expect(await db.ledgerTransaction.count({ where: { clinicId, kind: 'remittance.claim' } })).toBe(600);
  }, 120_000);
});
