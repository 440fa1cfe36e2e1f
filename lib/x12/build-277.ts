// Writes a 005010X212 277 claim status response for one claim: the sandbox payer's answer to a 276. Levels as the
// TR3's examples: 20 payer (2100A), 21 receiver (2100B), 19 provider (2100C), 22 subscriber (2100D), 23 dependent
// (2100E) when the 276 asked about one, then the claim status tracking loop (2200D or 2200E) with TRN*2 (the 276's
// trace echoed), STC, REF*1K, REF*EJ and DTP*472.
// Production never builds a 277: payers do.
import { buildInterchange, type ElementValue, type InterchangeEnvelope } from './build-interchange';
import type { Build276Input } from './build-276';
import type { ClaimStatusInput } from './build-277ca';
import { formatAmount } from './format-amount';
import { organizationNm1, personNm1 } from './nm1';
import { ccyymmdd, dateOrPeriod, hhmm } from './stamp';
import { toD8 } from './to-d8';

export type Build277Input = InterchangeEnvelope & {
  /** The request being answered (read276's result): its payer, receiver, provider, subscriber and claim are echoed. */
  request: Pick<Build276Input, 'payer' | 'receiver' | 'provider' | 'subscriber' | 'patient' | 'claim' | 'traceNumber'>;
  /** BHT03: our reference for this response, 1..50 characters. */
  referenceId: string;
  status: {
    /** STC01, e.g. F1:65 paid, F2:1 denied (see the remittance), P1:20 pending, A7:21 rejected, D0:35 not found. */
    status: ClaimStatusInput;
    /** STC02, YYYY-MM-DD. */
    statusDate: string;
    /** STC05: the amount paid, integer cents (finalized claims). */
    paidCents?: number;
    /** STC06: the date adjudication finalized, YYYY-MM-DD. */
    adjudicatedDate?: string;
    /** STC08: the remittance (payment) date, YYYY-MM-DD. */
    remittanceDate?: string;
    /** STC09: the remittance trace number (check or EFT number, the 835's TRN02). */
    remittanceTrace?: string;
    /** REF*1K, when the payer has one (else the request's, when it sent one). */
    payerClaimId?: string;
  };
};

const REFERENCE_ID_MAX = 50;

/**
 * The X212 STC has no free-form message (STC12 is not used there): words travel in the codes. Throws RangeError
 * for a value holding a delimiter, a bad date, or an amount that is not integer cents.
 */
export function build277(input: Build277Input): string {
  const { request, status } = input;
  const { claim, subscriber, patient } = request;
  if (input.referenceId.length < 1 || input.referenceId.length > REFERENCE_ID_MAX)
    throw new RangeError('referenceId must be 1..50 characters');
  const payerClaimId = status.payerClaimId ?? claim.payerClaimId;
  const optionalDate = (value: string | undefined, field: string) => (value === undefined ? '' : toD8(value, field));

  const body: ElementValue[][] = [
    // BHT02 08 status; BHT06 DG response.
    ['BHT', '0010', '08', input.referenceId, ccyymmdd(input.createdAt), hhmm(input.createdAt), 'DG'],
    ['HL', '1', '', '20', '1'],
    organizationNm1('PR', request.payer.name, 'PI', request.payer.id),
    ['HL', '2', '1', '21', '1'],
    organizationNm1('41', request.receiver.name, '46', request.receiver.id),
    ['HL', '3', '2', '19', '1'],
    organizationNm1('1P', request.provider.name, 'XX', request.provider.npi),
    ['HL', '4', '3', '22', patient ? '1' : '0'],
    personNm1('IL', subscriber, 'MI', subscriber.memberId),
    // 2000E/2100E: the dependent patient, named without an id (NM108/NM109 are not used there).
    ...(patient ? [['HL', '5', '4', '23'], personNm1('QC', patient)] : []),
    ['TRN', '2', request.traceNumber ?? claim.claimId],
    // STC03 (action) and STC07 (payment method) are not used in the X212 2200D.
    [
      'STC',
      [status.status.category, status.status.code, status.status.entity ?? ''],
      toD8(status.statusDate, 'status.statusDate'),
      '',
      formatAmount(claim.totalChargeCents),
      status.paidCents === undefined ? '' : formatAmount(status.paidCents),
      optionalDate(status.adjudicatedDate, 'status.adjudicatedDate'),
      '',
      optionalDate(status.remittanceDate, 'status.remittanceDate'),
      status.remittanceTrace ?? '',
    ],
  ];
  if (payerClaimId) body.push(['REF', '1K', payerClaimId]);
  body.push(
    ['REF', 'EJ', claim.claimId],
    ['DTP', '472', ...dateOrPeriod(claim.serviceDates, 'request.claim.serviceDates')],
  );
  return buildInterchange(
    input,
    { functionalId: 'HN', transactionSetId: '277', implementationReference: '005010X212' },
    body,
  );
}
