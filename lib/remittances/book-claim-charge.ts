// A claim's billed charge enters the ledger once: Dr claims-receivable, Cr patient-service revenue, so that each
// remittance's credit to claims-receivable (CLP03) takes off what was booked. Claim submission does not post it
// today, so the first remittance for the claim does (plan-posting.ts); the reference `claim:<id>` keeps it to one
// posting per claim, whoever books it first.
import type { Prisma } from '../db';
import { buildPosting, credit, debit, type LedgerLine } from '../ledger/build-posting';
import { LEDGER_ACCOUNTS } from '../ledger/ledger-accounts';
import { postLedgerTransaction } from '../ledger/post-ledger-transaction';

export const CLAIM_CHARGE_KIND = 'claim.charge';

export const claimChargeReference = (claimId: string) => `claim:${claimId}`;

/** The charge's posting lines; null for a zero charge (nothing to book). */
export function claimChargeLines(totalChargeCents: bigint): LedgerLine[] | null {
  if (totalChargeCents <= 0n) return null;
  return buildPosting([
    debit(LEDGER_ACCOUNTS.claimsReceivable, totalChargeCents),
    credit(LEDGER_ACCOUNTS.patientServiceRevenue, totalChargeCents),
  ]);
}

/**
 * Books the charge now unless it was booked before (a write-off of a claim no remittance reached needs a receivable
 * to credit). A secondary claim's visit was booked with its primary: nothing is booked for it.
 * @returns the new ledger transaction id, or null when there was nothing to book.
 */
export async function bookClaimCharge(
  tx: Prisma.TransactionClient,
  input: {
    claim: { id: string; clinicId: string; totalChargeCents: bigint; payerRank: string };
    correlationId: string;
    now: Date;
  },
): Promise<string | null> {
  const { claim } = input;
  const lines = claimChargeLines(claim.totalChargeCents);
  if (!lines || claim.payerRank === 'secondary') return null;
  const reference = claimChargeReference(claim.id);
  const booked = await tx.ledgerTransaction.findFirst({
    where: { clinicId: claim.clinicId, kind: CLAIM_CHARGE_KIND, reference },
    select: { id: true },
  });
  if (booked) return null;
  return postLedgerTransaction(tx, {
    clinicId: claim.clinicId,
    kind: CLAIM_CHARGE_KIND,
    reference,
    correlationId: input.correlationId,
    postedAt: input.now,
    lines,
  });
}
