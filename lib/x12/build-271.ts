// Writes a 005010X279A1 271 for one subscriber: the sandbox payer's answer. It writes what it is given and does
// not decide benefits (sandbox-payer.ts does); production never builds a 271.
import { buildInterchange, type InterchangeEnvelope } from './build-interchange';

/** A 2110C benefit: EB01..EBnn in order, then MSG free-form texts. */
export type Benefit271 = { eb: string[]; messages?: string[] };
/** AAA03 reject reason and AAA04 follow-up action. */
export type Aaa271 = { reasonCode: string; followUpCode: string };

export type Build271Input = InterchangeEnvelope & {
  payer: { id: string; name: string };
  provider: { npi: string; name: string };
  subscriber: { memberId: string; firstName: string; lastName: string; /** CCYYMMDD */ birthDate?: string };
  /** Echoed in 2000C TRN (TRN01 2: referenced transaction trace). */
  traceNumber: string;
  /** AAA in 2100A: the payer cannot answer at all, so no 2000B/2000C follow (TR3 2100A AAA notes). */
  payerRejection?: Aaa271;
  /** AAA in 2100C: the subscriber could not be matched; no benefits follow. */
  subscriberRejection?: Aaa271;
  /** 2100C segments after NM1 and DMG, e.g. REF*6P, DTP*346. */
  subscriberSegments?: string[][];
  benefits?: Benefit271[];
};

/** Throws RangeError when a value holds a delimiter (see buildInterchange). */
export function build271(input: Build271Input): string {
  const body: string[][] = [
    // BHT02 11: response.
    ['BHT', '0022', '11', input.traceNumber, ...bhtStamp(input.createdAt)],
    ['HL', '1', '', '20', '1'],
    ['NM1', 'PR', '2', input.payer.name, '', '', '', '', 'PI', input.payer.id],
  ];
  if (input.payerRejection) {
    body.push(['AAA', 'N', '', input.payerRejection.reasonCode, input.payerRejection.followUpCode]);
  } else {
    body.push(
      ['HL', '2', '1', '21', '1'],
      ['NM1', '1P', '2', input.provider.name, '', '', '', '', 'XX', input.provider.npi],
      ['HL', '3', '2', '22', '0'],
      ['TRN', '2', input.traceNumber, '9877281234'],
      ['NM1', 'IL', '1', input.subscriber.lastName, input.subscriber.firstName, '', '', '', 'MI', input.subscriber.memberId],
    );
    if (input.subscriberRejection) {
      body.push(['AAA', 'N', '', input.subscriberRejection.reasonCode, input.subscriberRejection.followUpCode]);
    }
    if (input.subscriber.birthDate) body.push(['DMG', 'D8', input.subscriber.birthDate]);
    body.push(...(input.subscriberSegments ?? []));
    for (const benefit of input.benefits ?? []) {
      body.push(['EB', ...benefit.eb]);
      for (const message of benefit.messages ?? []) body.push(['MSG', message]);
    }
  }
  return buildInterchange(input, { functionalId: 'HB', transactionSetId: '271', implementationReference: '005010X279A1' }, body);
}

function bhtStamp(at: Date): [string, string] {
  const pad = (n: number) => String(n).padStart(2, '0');
  return [
    `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}`,
    `${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}`,
  ];
}
