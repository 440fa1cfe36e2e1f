// A claim's billed charge enters the ledger once: Dr claims-receivable, Cr patient-service revenue, so that each
// remittance's credit to claims-receivable (CLP03) takes off what was booked. Claim submission does not post it
// today, so the first remittance for the claim does; the reference `claim:<id>` keeps it to one posting per claim,
// whoever books it first (submission may call this too).
import type { Prisma } from '../db';
import { credit, debit } from '../ledger/build-posting';
import { LEDGER_ACCOUNTS } from '../ledger/ledger-accounts';
import { postLedgerTransaction } from '../ledger/post-ledger-transaction';

export const CLAIM_CHARGE_KIND = 'claim.charge';

/** @returns the new ledger transaction id, or null when the charge was booked before (or is zero). */
export async function bookClaimCharge(
  tx: Prisma.TransactionClient,
  input: {
    claim: { id: string; clinicId: string; totalChargeCents: bigint };
    correlationId: string;
    now: Date;
    /** False when the caller already looked and found no booking (a batch read), so it is not looked up again. */
    known?: boolean;
  },
): Promise<string | null> {
  const { claim } = input;
  if (claim.totalChargeCents <= 0n) return null;
  const reference = `claim:${claim.id}`;
  if (input.known !== false) {
    const booked = await tx.ledgerTransaction.findFirst({
      where: { clinicId: claim.clinicId, kind: CLAIM_CHARGE_KIND, reference },
      select: { id: true },
    });
    if (booked) return null;
  }
  return postLedgerTransaction(tx, {
    clinicId: claim.clinicId,
    kind: CLAIM_CHARGE_KIND,
    reference,
    correlationId: input.correlationId,
    postedAt: input.now,
    lines: [
      debit(LEDGER_ACCOUNTS.claimsReceivable, claim.totalChargeCents),
      credit(LEDGER_ACCOUNTS.patientServiceRevenue, claim.totalChargeCents),
    ],
  });
}
