// Writes a 005010X212 276 claim status request for one claim, as the TR3's examples write it: payer (2000A/2100A),
// information receiver, which is us (2000B/2100B), service provider (2000C/2100C, NPI), subscriber (2000D/2100D),
// a dependent patient when the patient is not the subscriber (2000E/2100E), and the claim (2200D or 2200E: TRN*1
// trace, REF*1K, REF*EJ, AMT*T3, DTP*472). The DMG goes on the patient's level. It does not send it (the
// clearinghouse transport does) nor choose control numbers or the time.
import { buildInterchange, type ElementValue, type InterchangeEnvelope } from './build-interchange';
import { formatAmount } from './format-amount';
import { organizationNm1, personNm1 } from './nm1';
import { ccyymmdd, dateOrPeriod, hhmm } from './stamp';
import { toD8 } from './to-d8';

export type Build276Input = InterchangeEnvelope & {
  /** 2100A NM1*PR with PI. */
  payer: { id: string; name: string };
  /** 2100B NM1*41 with 46 (electronic transmitter id): who asks. */
  receiver: { id: string; name: string };
  /** 2100C NM1*1P with XX. */
  provider: { npi: string; name: string };
  /** 2100D NM1*IL with MI; its 2000D DMG (birth date; sex F or M, none sent for U) when it is the patient. */
  subscriber: {
    memberId: string;
    lastName: string;
    firstName: string;
    middleName?: string;
    /** YYYY-MM-DD. */
    birthDate: string;
    sex: 'F' | 'M' | 'U';
  };
  /**
   * The patient when not the subscriber (a dependent): 2000E with its DMG and 2100E NM1*QC (no id: the
   * subscriber's member id identifies the coverage). Absent when the patient is the subscriber.
   */
  patient?: {
    lastName: string;
    firstName: string;
    middleName?: string;
    /** YYYY-MM-DD. */
    birthDate: string;
    sex: 'F' | 'M' | 'U';
  };
  claim: {
    /** REF*EJ (patient control number): CLM01 as we sent it, our claim id. */
    claimId: string;
    /** REF*1K: the payer's claim control number, when known (277CA or 835). */
    payerClaimId?: string;
    /** AMT*T3: total submitted charges, integer cents. */
    totalChargeCents: number;
    /** DTP*472 service dates, YYYY-MM-DD: D8 for one day, RD8 for a range. */
    serviceDates: { from: string; to?: string };
  };
  /** 2200D TRN02 and BHT03, echoed by the 277; defaults to claim.claimId, so the answer names the claim. 1..50. */
  traceNumber?: string;
};

const TRACE_MAX = 50;
const CLAIM_ID_MAX = 38; // CLM01, echoed in REF02 (which allows 50)

/** Throws RangeError for a value holding a delimiter, a bad date or NPI, or a charge not integer cents. */
export function build276(input: Build276Input): string {
  const { payer, receiver, provider, subscriber, patient, claim } = input;
  const traceNumber = input.traceNumber ?? claim.claimId;
  if (traceNumber.length < 1 || traceNumber.length > TRACE_MAX)
    throw new RangeError('traceNumber must be 1..50 characters');
  if (claim.claimId.length < 1 || claim.claimId.length > CLAIM_ID_MAX)
    throw new RangeError('claim.claimId must be 1..38 characters');
  if (!/^\d{10}$/.test(provider.npi)) throw new RangeError('provider.npi must be 10 digits');
  if (!['F', 'M', 'U'].includes(subscriber.sex)) throw new RangeError('subscriber.sex must be F, M or U');
  if (patient && !['F', 'M', 'U'].includes(patient.sex)) throw new RangeError('patient.sex must be F, M or U');

  const body: ElementValue[][] = [
    // BHT01 0010 information source, receiver, provider, subscriber, dependent; BHT02 13 request.
    ['BHT', '0010', '13', traceNumber, ccyymmdd(input.createdAt), hhmm(input.createdAt)],
    ['HL', '1', '', '20', '1'],
    organizationNm1('PR', payer.name, 'PI', payer.id),
    ['HL', '2', '1', '21', '1'],
    organizationNm1('41', receiver.name, '46', receiver.id),
    ['HL', '3', '2', '19', '1'],
    organizationNm1('1P', provider.name, 'XX', provider.npi),
    // 2000D: HL04 1 when a dependent level (2000E) follows. DMG03 allows F and M only.
    ['HL', '4', '3', '22', patient ? '1' : '0'],
  ];
  if (patient) {
    body.push(
      personNm1('IL', subscriber, 'MI', subscriber.memberId),
      // 2000E: no HL04 (a dependent level has no children), as the TR3's example writes it.
      ['HL', '5', '4', '23'],
      demographics(patient, 'patient'),
      personNm1('QC', patient),
    );
  } else {
    body.push(demographics(subscriber, 'subscriber'), personNm1('IL', subscriber, 'MI', subscriber.memberId));
  }
  body.push(['TRN', '1', traceNumber]);
  if (claim.payerClaimId) body.push(['REF', '1K', claim.payerClaimId]);
  body.push(
    ['REF', 'EJ', claim.claimId],
    ['AMT', 'T3', formatAmount(claim.totalChargeCents)],
    ['DTP', '472', ...dateOrPeriod(claim.serviceDates, 'claim.serviceDates')],
  );
  return buildInterchange(
    input,
    { functionalId: 'HR', transactionSetId: '276', implementationReference: '005010X212' },
    body,
  );
}

function demographics(person: { birthDate: string; sex: string }, field: string): ElementValue[] {
  return ['DMG', 'D8', toD8(person.birthDate, `${field}.birthDate`), person.sex === 'U' ? '' : person.sex];
}
