// Claims to pay and 835s that pay them, for the remittance tests: claim rows written as submission leaves them, a
// balanced remittance built from plain numbers, and a fast-check arbitrary of balanced 835s over given claims.
import fc from 'fast-check';
import type { Db } from '@/lib/db';
import type { Cents } from '@/lib/money/cents';
import { build835 } from '@/lib/x12/fixtures/build-835';
import type { CasAdjustment, ClaimPayment, ProviderAdjustment, Remittance } from '@/lib/x12/read-remittance';
import { uid, type TestTenant } from './factories';

export type ClaimSetup = {
  id?: string;
  patientId?: string;
  status?: string;
  lines?: { procedureCode: string; chargeCents: number }[];
  /** A secondary claim names the primary claim whose 835 it carries (DECISIONS "Claim lifecycle"). */
  primaryClaimId?: string;
};

/** A claim (and its patient) as submission leaves it: status `accepted` unless told; secondary with a primary. */
export async function createClaim(db: Db, tenant: TestTenant, setup: ClaimSetup = {}) {
  const id = setup.id ?? uid('clm');
  const patientId = setup.patientId ?? uid('pat');
  if (!setup.patientId) {
    await db.patient.create({
      data: { id: patientId, clinicId: tenant.clinicId, firstName: 'Pat', lastName: 'Ient', birthDate: '1980-01-02' },
    });
  }
  const lines = setup.lines ?? [
    { procedureCode: '99213', chargeCents: 15_000 },
    { procedureCode: '81002', chargeCents: 10_000 },
  ];
  await db.claim.create({
    data: {
      id,
      clinicId: tenant.clinicId,
      patientId,
      totalChargeCents: BigInt(lines.reduce((t, l) => t + l.chargeCents, 0)),
      serviceDate: '2026-11-02',
      status: setup.status ?? 'accepted',
      diagnoses: ['J06.9'],
      payerId: '60054',
      payerName: 'Aetna',
      memberId: 'DEMO-ACTIVE-1',
      correlationId: 'setup',
      ...(setup.primaryClaimId && { payerRank: 'secondary', primaryClaimId: setup.primaryClaimId }),
      lines: {
        create: lines.map((l, i) => ({
          clinicId: tenant.clinicId,
          position: i + 1,
          procedureCode: l.procedureCode,
          diagnosisPointers: [1],
          units: 1,
          chargeCents: BigInt(l.chargeCents),
        })),
      },
    },
  });
  return { id, patientId };
}

const c = (n: number) => n as Cents;
const sum = (items: readonly { amountCents: number }[]) => items.reduce((t, a) => t + a.amountCents, 0);

export type LineSpec = { procedureCode: string; chargeCents: number; adjustments: [string, string, number][] };

/** One CLP, balanced: each line pays its charge less its CAS; the claim pays its lines less its claim-level CAS. */
export function claimPayment(
  claimId: string,
  statusCode: string,
  lines: LineSpec[],
  claimAdjustments: [string, string, number][] = [],
): ClaimPayment {
  const cas = (list: [string, string, number][]): CasAdjustment[] =>
    list.map(([group, reason, amount]) => ({ group, reason, amountCents: c(amount) }));
  const built = lines.map((l) => {
    const adjustments = cas(l.adjustments);
    return {
      procedureCode: l.procedureCode,
      modifiers: [],
      chargeCents: c(l.chargeCents),
      paidCents: c(l.chargeCents - sum(adjustments)),
      units: 1,
      adjustments,
    };
  });
  const adjustments = cas(claimAdjustments);
  const all = [...adjustments, ...built.flatMap((l) => l.adjustments)];
  return {
    claimId,
    payerClaimId: `PCN${claimId.slice(-6)}`,
    statusCode,
    chargeCents: c(sum(built.map((l) => ({ amountCents: l.chargeCents })))),
    paidCents: c(sum(built.map((l) => ({ amountCents: l.paidCents }))) - sum(adjustments)),
    patientResponsibilityCents: c(sum(all.filter((a) => a.group === 'PR'))),
    adjustments,
    lines: built,
  };
}

/** The negation of a CLP, as a payer writes its reversal (CLP02 22). */
export function reversalOf(claim: ClaimPayment): ClaimPayment {
  const neg = (a: CasAdjustment) => ({ ...a, amountCents: c(-a.amountCents) });
  return {
    ...claim,
    statusCode: '22',
    chargeCents: c(-claim.chargeCents),
    paidCents: c(-claim.paidCents),
    patientResponsibilityCents: c(-claim.patientResponsibilityCents),
    adjustments: claim.adjustments.map(neg),
    lines: claim.lines.map((l) => ({
      ...l,
      chargeCents: c(-l.chargeCents),
      paidCents: c(-l.paidCents),
      adjustments: l.adjustments.map(neg),
    })),
  };
}

export function remittanceOf(
  claims: ClaimPayment[],
  options: {
    traceNumber?: string;
    payerId?: string;
    providerAdjustments?: ProviderAdjustment[];
    paymentDate?: string;
  } = {},
): Remittance {
  const providerAdjustments = options.providerAdjustments ?? [];
  return {
    payerId: options.payerId ?? '60054',
    payerName: 'AETNA',
    payeeNpi: '1234567893',
    traceNumber: options.traceNumber ?? uid('TRN').toUpperCase(),
    paymentMethod: 'ACH',
    paymentCents: c(claims.reduce((t, cl) => t + cl.paidCents, 0) - sum(providerAdjustments)),
    paymentDate: options.paymentDate ?? '2026-11-20',
    claims,
    providerAdjustments,
  };
}

/** An 835 interchange of the remittance. */
export const x12Of = (remittance: Remittance) => build835(remittance);

/** Several 835s in one interchange (each its own ST/SE; GE counts them). */
export function interchangeOf(remittances: Remittance[]): string {
  const sets = remittances.map((r, i) => {
    const text = build835(r, undefined, '\n');
    const start = text.indexOf('ST*835');
    const end = text.indexOf('GE*');
    return text
      .slice(start, end)
      .replaceAll('ST*835*0001', `ST*835*000${i + 1}`)
      .replaceAll(/SE\*(\d+)\*0001/g, `SE*$1*000${i + 1}`);
  });
  const first = build835(remittances[0]!, undefined, '\n');
  const head = first.slice(0, first.indexOf('ST*835'));
  return `${head}${sets.join('')}GE*${remittances.length}*1~\nIEA*1*000000001~\n`;
}

const amount = fc.integer({ min: 1, max: 500_000 });
const casTriple = fc.tuple(
  fc.constantFrom('CO', 'PR', 'OA', 'PI'),
  fc.constantFrom('1', '2', '45', '50', '97', '253'),
  fc.integer({ min: -2_000, max: 20_000 }),
);

/** Balanced 835s over the given claim ids: paid, denied, processed and reversed CLPs, with or without PLB. */
export function remittanceArbitrary(claimIds: readonly string[]): fc.Arbitrary<Remittance> {
  const line = fc.record({
    procedureCode: fc.constantFrom('99213', '81002', '97110'),
    chargeCents: amount,
    adjustments: fc.array(casTriple, { maxLength: 3 }),
  });
  const claim = fc
    .record({
      claimId: fc.constantFrom(...claimIds),
      statusCode: fc.constantFrom('1', '2', '4', '19', '22', '23', '25'),
      lines: fc.array(line, { minLength: 1, maxLength: 3 }),
      claimAdjustments: fc.array(casTriple, { maxLength: 2 }),
    })
    .map(({ claimId, statusCode, lines, claimAdjustments }) => {
      const built = claimPayment(claimId, statusCode === '22' ? '1' : statusCode, lines, claimAdjustments);
      return statusCode === '22' ? reversalOf(built) : built;
    });
  const plb = fc.record({
    reason: fc.constantFrom('L6', 'WO', 'FB', '72', 'CS'),
    reference: fc.option(fc.stringMatching(/^[A-Z0-9]{1,8}$/), { nil: null }),
    amountCents: fc.integer({ min: -5_000, max: 5_000 }).map(c),
  });
  return fc
    .record({
      claims: fc.array(claim, { minLength: 1, maxLength: 4 }),
      providerAdjustments: fc.array(plb, { maxLength: 3 }),
    })
    .map(({ claims, providerAdjustments }) => remittanceOf(claims, { providerAdjustments }));
}

/** The clinic's balance of one ledger account, over the transactions whose reference matches `reference` (LIKE). */
export async function ledgerBalance(db: Db, clinicId: string, account: string, reference?: string): Promise<bigint> {
  const rows = await db.$queryRawUnsafe<{ s: bigint | null }[]>(
    `SELECT SUM(e."amountCents")::bigint AS s FROM "LedgerEntry" e JOIN "LedgerTransaction" t ON t."id" = e."transactionId"
     WHERE t."clinicId" = $1 AND e."account" = $2 AND ($3::text IS NULL OR t."reference" LIKE $3)`,
    clinicId,
    account,
    reference ?? null,
  );
  return BigInt(rows[0]?.s ?? 0n);
}
