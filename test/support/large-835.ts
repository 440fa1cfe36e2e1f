// Payer-scale 835s for the throughput tests and bench/era-post.ts: thousands of submitted claims seeded straight
// into the database (three statements, not thousands of ORM calls) and a balanced 835 paying all of them, built
// from a fixed seed so every run posts the same file.
import type { Db } from '@/lib/db';
import type { Cents } from '@/lib/money/cents';
import { build835 } from '@/lib/x12/fixtures/build-835';
import type { CasAdjustment, ClaimPayment, Remittance, ServicePayment } from '@/lib/x12/read-remittance';
import { seededRandom } from '@/lib/seeded-random';

export type SeededClaim = { id: string; lines: { procedureCode: string; chargeCents: number }[] };

const PROCEDURES = ['99213', '99214', '81002', '97110'];

/** `count` claims of one to three lines each, ids `${prefix}_${n}`, from a fixed seed. */
export function largeClaimSet(prefix: string, count: number, seed = 835): SeededClaim[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, n) => ({
    id: `${prefix}_${n}`,
    lines: Array.from({ length: 1 + Math.floor(random() * 3) }, (_, l) => ({
      procedureCode: PROCEDURES[(n + l) % PROCEDURES.length]!,
      chargeCents: 5_000 + Math.floor(random() * 50_000),
    })),
  }));
}

/** Writes the claims as submission leaves them (`submitted`), for one patient, in three statements. */
export async function seedClaims(db: Db, clinicId: string, claims: readonly SeededClaim[]): Promise<void> {
  const patientId = `pat_${claims[0]?.id ?? 'none'}`;
  await db.$executeRawUnsafe(
    `INSERT INTO "Patient" ("id", "clinicId", "firstName", "lastName", "birthDate", "updatedAt")
     VALUES ($1, $2, 'Bulk', 'Patient', '1970-01-01', now())`,
    patientId,
    clinicId,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO "Claim" ("id", "clinicId", "patientId", "totalChargeCents", "serviceDate", "status", "diagnoses",
       "payerId", "payerName", "memberId", "correlationId", "submittedAt", "updatedAt")
     SELECT c.id, $1, $2, c.charge, '2026-11-02', 'submitted', ARRAY['J06.9'], '60054', 'Aetna', 'M1', 'seed', now(), now()
     FROM unnest($3::text[], $4::bigint[]) AS c(id, charge)`,
    clinicId,
    patientId,
    claims.map((c) => c.id),
    claims.map((c) => String(c.lines.reduce((t, l) => t + l.chargeCents, 0))),
  );
  const lines = claims.flatMap((c) => c.lines.map((l, i) => ({ claimId: c.id, position: i + 1, ...l })));
  await db.$executeRawUnsafe(
    `INSERT INTO "ClaimLine" ("id", "claimId", "clinicId", "position", "procedureCode", "diagnosisPointers", "units", "chargeCents")
     SELECT l.claim_id || '_' || l.position, l.claim_id, $1, l.position, l.code, ARRAY[1], 1, l.charge
     FROM unnest($2::text[], $3::int[], $4::text[], $5::bigint[]) AS l(claim_id, position, code, charge)`,
    clinicId,
    lines.map((l) => l.claimId),
    lines.map((l) => l.position),
    lines.map((l) => l.procedureCode),
    lines.map((l) => String(l.chargeCents)),
  );
}

const c = (n: number) => n as Cents;

/**
 * A balanced 835 paying every claim once (`repeat` times over, for a bigger file): each line loses a contractual
 * CO-45 and, every other claim, a PR-2 coinsurance to the patient; a PLB interest line.
 */
export function largeRemittance(
  claims: readonly SeededClaim[],
  options: { traceNumber: string; seed?: number; repeat?: number },
): Remittance {
  const random = seededRandom(options.seed ?? 26);
  const payments: ClaimPayment[] = [];
  for (let round = 0; round < (options.repeat ?? 1); round++) {
    for (const [n, claim] of claims.entries()) {
      const lines: ServicePayment[] = claim.lines.map((line) => {
        const adjustments: CasAdjustment[] = [
          { group: 'CO', reason: '45', amountCents: c(Math.floor(line.chargeCents * (0.1 + random() * 0.2))) },
          ...(n % 2 === 0 ? [{ group: 'PR', reason: '2', amountCents: c(Math.floor(line.chargeCents / 10)) }] : []),
        ];
        const adjusted = adjustments.reduce((t, a) => t + a.amountCents, 0);
        return {
          procedureCode: line.procedureCode,
          modifiers: [],
          chargeCents: c(line.chargeCents),
          paidCents: c(line.chargeCents - adjusted),
          units: 1,
          adjustments,
        };
      });
      const all = lines.flatMap((l) => l.adjustments);
      payments.push({
        claimId: claim.id,
        payerClaimId: `PCN${n}`,
        statusCode: '1',
        chargeCents: c(lines.reduce((t, l) => t + l.chargeCents, 0)),
        paidCents: c(lines.reduce((t, l) => t + l.paidCents, 0)),
        patientResponsibilityCents: c(all.filter((a) => a.group === 'PR').reduce((t, a) => t + a.amountCents, 0)),
        adjustments: [],
        lines,
      });
    }
  }
  const interest = c(-125);
  return {
    payerId: '60054',
    payerName: 'ACME HEALTH PLAN',
    payeeNpi: '1234567893',
    traceNumber: options.traceNumber,
    paymentMethod: 'ACH',
    paymentCents: c(payments.reduce((t, p) => t + p.paidCents, 0) - interest),
    paymentDate: '2026-11-20',
    claims: payments,
    providerAdjustments: [{ reason: 'L6', reference: 'INT', amountCents: interest }],
  };
}

/** The 835 interchange text, one segment a line. */
export const largeX12 = (remittance: Remittance) => build835(remittance, undefined, '\n');
