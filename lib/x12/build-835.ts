// Writes a 005010X221A1 835 health care claim payment/advice, as the TR3's examples write it: BPR (payment), TRN*1
// (trace), N1*PR payer and N1*PE payee, LX, then per claim CLP, CAS, NM1*QC, DTM*232, and per line SVC, DTM*472,
// CAS; PLB last. BPR02 is computed from the claims and PLBs, and every balancing rule is checked before a byte is
// written, so what this writes read835 reads back to the same numbers. Production never builds an 835 (payers
// do); the sandbox clearinghouse's remittances and the tests do.
import { type InterchangeEnvelope } from './build-interchange';

/** One CAS reason/amount pair; group CO, PR, OA, PI or CR. Positive amounts reduce the payment. */
export type Adjustment835 = { group: string; reason: string; amountCents: number };

export type Line835 = {
  procedureCode: string;
  modifiers?: string[];
  /** SVC02. */
  chargeCents: number;
  /** SVC03. */
  paidCents: number;
  /** SVC05, a positive integer. */
  units: number;
  /** DTM*472, YYYY-MM-DD. */
  serviceDate?: string;
  adjustments: Adjustment835[];
};

export type Claim835 = {
  /** CLP01: our claim id (CLM01). */
  claimId: string;
  /** CLP02: 1 processed as primary, 4 denied, 22 reversal... */
  statusCode: string;
  /** CLP03, CLP04, CLP05 (integer cents, negative for a reversal). */
  chargeCents: number;
  paidCents: number;
  patientResponsibilityCents: number;
  /** CLP07. */
  payerClaimId: string;
  /** CLP06 claim filing indicator; defaults to 12 (PPO). */
  filingIndicator?: string;
  /** NM1*QC with MI. */
  patient: { lastName: string; firstName: string; memberId: string };
  /** DTM*232 claim statement period start, YYYY-MM-DD. */
  statementFrom: string;
  /** DTM*233, when the period has an end other than its start. */
  statementTo?: string;
  /** Claim-level CAS (loop 2100). */
  adjustments: Adjustment835[];
  lines: Line835[];
};

export type Build835Input = InterchangeEnvelope & {
  /** BPR04: CHK check, ACH, NON (no payment). ACH writes no bank details: the sandbox moves no money. */
  paymentMethod: 'CHK' | 'ACH' | 'NON';
  /** BPR16, YYYY-MM-DD. */
  paymentDate: string;
  /** TRN02: the check or EFT trace number; (payer id, TRN02) is what posting is idempotent on. */
  traceNumber: string;
  /** N1*PR (XV payer id); TRN03 is "1" + `taxId` when given, else "1" + the payer id. */
  payer: { id: string; name: string; taxId?: string };
  /** N1*PE with XX. */
  payee: { npi: string; name: string };
  claims: Claim835[];
  /** PLB: provider-level adjustments (positive reduces the payment). */
  providerAdjustments?: { reason: string; reference?: string; amountCents: number }[];
  /** PLB02, YYYY-MM-DD: the fiscal period date; defaults to paymentDate. */
  fiscalPeriodDate?: string;
};

/**
 * Throws RangeError when the claims do not balance (TR3's service line and claim rules), the payment would be
 * negative, there are no claims, or a value holds a delimiter or is not integer cents.
 */
export function build835(input: Build835Input): string {
  void input;
  throw new Error('not implemented');
}
