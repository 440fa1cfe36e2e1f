// Writes a 005010X279A1 270 eligibility inquiry for one subscriber. It does not send it (PayerTransport does)
// and does not choose control numbers or the time: both come in as arguments.
import { buildInterchange, REPETITION_SEPARATOR, type InterchangeEnvelope } from './build-interchange';
import { fitName, NAME_FIRST_MAX, NAME_LAST_OR_ORGANIZATION_MAX } from './fit-name';
import { toD8 } from './to-d8';

export type Build270Input = InterchangeEnvelope & {
  payer: { id: string; name: string };
  provider: { npi: string; name: string };
  subscriber: { memberId: string; firstName: string; lastName: string; /** YYYY-MM-DD */ birthDate: string };
  /** One EQ per code (2110C EQ01). */
  serviceTypeCodes: string[];
  /** YYYY-MM-DD, sent as DTP*291. */
  dateOfService: string;
  /** TRN02: echoed back by the payer in the 271's 2000C TRN. */
  traceNumber: string;
  /** TRN03, 10 characters: "1" + EIN or "9" + an id of our own. Defaults to "9" + the NPI's first nine digits. */
  traceAssigningEntityId?: string;
};

/**
 * Names longer than their NM1 element are cut (NM103 60, NM104 35) without a trailing space. Throws RangeError on a
 * malformed date, NPI, empty service type list or a value holding a delimiter.
 */
export function build270(input: Build270Input): string {
  if (!/^\d{10}$/.test(input.provider.npi)) throw new RangeError('provider.npi must be 10 digits');
  if (input.serviceTypeCodes.length === 0 || input.serviceTypeCodes.length > 99)
    throw new RangeError('serviceTypeCodes must hold 1..99 codes');
  if (input.serviceTypeCodes.some((code) => code.includes(REPETITION_SEPARATOR) || code === ''))
    throw new RangeError('invalid service type code');
  const at = input.createdAt;
  const pad = (n: number) => String(n).padStart(2, '0');
  const bhtDate = `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}`;
  const bhtTime = `${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}`;

  const body: string[][] = [
    // BHT01 0022 information source/receiver hierarchy; BHT02 13 request.
    ['BHT', '0022', '13', input.traceNumber, bhtDate, bhtTime],
    // 2000A/2100A information source (payer): HL03 20, NM1*PR with PI payer id.
    ['HL', '1', '', '20', '1'],
    ['NM1', 'PR', '2', fitName(input.payer.name, NAME_LAST_OR_ORGANIZATION_MAX), '', '', '', '', 'PI', input.payer.id],
    // 2000B/2100B information receiver (provider): HL03 21, NM1*1P with XX = NPI.
    ['HL', '2', '1', '21', '1'],
    [
      'NM1',
      '1P',
      '2',
      fitName(input.provider.name, NAME_LAST_OR_ORGANIZATION_MAX),
      '',
      '',
      '',
      '',
      'XX',
      input.provider.npi,
    ],
    // 2000C/2100C subscriber: HL03 22, no children (HL04 0); TRN identifies this inquiry.
    ['HL', '3', '2', '22', '0'],
    ['TRN', '1', input.traceNumber, input.traceAssigningEntityId ?? `9${input.provider.npi.slice(0, 9)}`],
    [
      'NM1',
      'IL',
      '1',
      fitName(input.subscriber.lastName, NAME_LAST_OR_ORGANIZATION_MAX),
      fitName(input.subscriber.firstName, NAME_FIRST_MAX),
      '',
      '',
      '',
      'MI',
      input.subscriber.memberId,
    ],
    ['DMG', 'D8', toD8(input.subscriber.birthDate, 'subscriber.birthDate')],
    ['DTP', '291', 'D8', toD8(input.dateOfService, 'dateOfService')],
    // 2110C: one EQ per requested service type.
    ...input.serviceTypeCodes.map((code) => ['EQ', code]),
  ];
  return buildInterchange(
    input,
    { functionalId: 'HS', transactionSetId: '270', implementationReference: '005010X279A1' },
    body,
  );
}
