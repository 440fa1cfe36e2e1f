// Writes a 005010X279A1 271 for one subscriber: the sandbox payer's answer. It writes what it is given, in the
// TR3's segment order, and does not decide benefits (sandbox-payer.ts does); production never builds a 271.
import { buildInterchange, type InterchangeEnvelope } from './build-interchange';
import { fitName, NAME_FIRST_MAX, NAME_LAST_OR_ORGANIZATION_MAX } from './fit-name';

/** A 2110C benefit: EB01..EBnn in order, then MSG free-form texts. */
export type Benefit271 = { eb: string[]; messages?: string[] };
/** AAA03 reject reason and AAA04 follow-up action. */
export type Aaa271 = { reasonCode: string; followUpCode: string };
/** TRN02..TRN04 of the 270's 2000C TRN (trace type 1, current transaction trace number). */
export type InquiryTrace = { referenceId: string; originatorId: string; supplementalId?: string };

export type Build271Input = InterchangeEnvelope & {
  /** BHT03: the 270's BHT03, echoed (TR3 271 BHT03, required when the 270 sent one). */
  submitterTransactionId: string;
  payer: { id: string; name: string };
  provider: { npi: string; name: string };
  subscriber: { memberId: string; firstName: string; lastName: string; /** CCYYMMDD */ birthDate?: string };
  /** Echoed in the 2000C TRN with TRN01 2 (referenced transaction trace number). */
  inquiryTrace: InquiryTrace;
  /** AAA in 2100A: the payer cannot answer at all, so no 2000B/2000C follow (TR3 2100A AAA notes). */
  payerRejection?: Aaa271;
  /** AAA in 2100C: the subscriber could not be matched; no benefits follow. */
  subscriberRejection?: Aaa271;
  /** Other 2100C segments, e.g. REF*6P, DTP*346: written in TR3 order whatever order they come in. */
  subscriberSegments?: string[][];
  benefits?: Benefit271[];
};

// TR3 271 loop 2100C, segments after NM1 in the order the guide fixes (a validator rejects any other order).
const LOOP_2100C_ORDER = ['REF', 'N3', 'N4', 'AAA', 'PRV', 'DMG', 'INS', 'HI', 'DTP', 'MPI'];

/** Throws RangeError when a value holds a delimiter (see buildInterchange) or a 2100C segment is not a 2100C one. */
export function build271(input: Build271Input): string {
  const body: string[][] = [
    // BHT02 11: response.
    ['BHT', '0022', '11', input.submitterTransactionId, ...bhtStamp(input.createdAt)],
    // HL04 says whether a child HL follows: none does after a payer rejection.
    ['HL', '1', '', '20', input.payerRejection ? '0' : '1'],
    ['NM1', 'PR', '2', fitName(input.payer.name, NAME_LAST_OR_ORGANIZATION_MAX), '', '', '', '', 'PI', input.payer.id],
  ];
  if (input.payerRejection) {
    body.push(['AAA', 'N', '', input.payerRejection.reasonCode, input.payerRejection.followUpCode]);
  } else {
    const { referenceId, originatorId, supplementalId = '' } = input.inquiryTrace;
    body.push(
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
      // No 2000D follows: this builder answers for the subscriber only.
      ['HL', '3', '2', '22', '0'],
      ['TRN', '2', referenceId, originatorId, supplementalId],
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
      ...loop2100C(input),
    );
    for (const benefit of input.benefits ?? []) {
      body.push(['EB', ...benefit.eb]);
      for (const message of benefit.messages ?? []) body.push(['MSG', message]);
    }
  }
  return buildInterchange(
    input,
    { functionalId: 'HB', transactionSetId: '271', implementationReference: '005010X279A1' },
    body,
  );
}

/** 2100C after its NM1, in LOOP_2100C_ORDER; segments of one id keep the order they came in. */
function loop2100C(input: Build271Input): string[][] {
  const segments = [...(input.subscriberSegments ?? [])];
  if (input.subscriberRejection)
    segments.push(['AAA', 'N', '', input.subscriberRejection.reasonCode, input.subscriberRejection.followUpCode]);
  if (input.subscriber.birthDate) segments.push(['DMG', 'D8', input.subscriber.birthDate]);
  const ranked = segments.map((segment) => {
    const position = LOOP_2100C_ORDER.indexOf(segment[0] ?? '');
    if (position === -1) throw new RangeError(`${segment[0] || 'an empty segment'} is not a loop 2100C segment`);
    return { segment, position };
  });
  // Array#sort is stable, so two REFs or two DTPs stay in the order given.
  return ranked.sort((a, b) => a.position - b.position).map(({ segment }) => segment);
}

function bhtStamp(at: Date): [string, string] {
  const pad = (n: number) => String(n).padStart(2, '0');
  return [
    `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}`,
    `${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}`,
  ];
}
