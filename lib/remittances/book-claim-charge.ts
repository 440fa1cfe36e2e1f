// A claim's billed charge enters the ledger once: Dr claims-receivable, Cr patient-service revenue, so that each
// remittance's credit to claims-receivable (CLP03) takes off what was booked. Claim submission does not post it
// today, so the first remittance for the claim does (plan-posting.ts); the reference `claim:<id>` keeps it to one
// posting per claim, whoever books it first.
import { buildPosting, credit, debit, type LedgerLine } from '../ledger/build-posting';
import { LEDGER_ACCOUNTS } from '../ledger/ledger-accounts';

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
