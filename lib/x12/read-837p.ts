// Reads an 837P of the shape build-837p.ts writes (one claim, the same loops and segments) back into that
// builder's input: the round-trip tests prove the two agree, and the sandbox clearinghouse reads what it was sent.
// It is not a general 837P reader: a segment we never write, or one out of our order, is an error.
import { decimalToCents, readDecimal } from '../money/decimal';
import type { Build837pInput } from './build-837p';
import { element } from './element';
import type {
  Demographics,
  OtherPayer,
  OtherPayerAdjustment,
  PersonName,
  PostalAddress,
  ProfessionalClaim,
  ServiceLine,
} from './professional-claim';
import { readInterchange, type Segment } from './read-interchange';
import { X12ReadError } from './x12-read-error';

const fail = (reason: string): never => {
  throw new X12ReadError('unreadable', reason);
};

/** Throws X12ReadError('unreadable') for anything but one 837P claim in build-837p.ts's shape. */
export function read837p(text: string): Build837pInput {
  const interchange = readInterchange(text);
  const group = interchange.groups.length === 1 ? interchange.groups[0]! : fail('expected one functional group');
  const transaction = group.transactions.length === 1 ? group.transactions[0]! : fail('expected one transaction set');
  if (group.functionalId !== 'HC' || transaction.id !== '837') fail('not an 837 in an HC functional group');
  const { component } = interchange.delimiters;
  const segments = transaction.segments;
  let at = 1; // after ST

  /** The next segment, which must be `id` (with `qualifier` as its first element when given). */
  const take = (id: string, qualifier?: string): Segment => {
    const segment = segments[at];
    if (!segment || segment.id !== id || (qualifier !== undefined && segment.elements[1] !== qualifier)) {
      fail(`segment ${at + 1}: expected ${qualifier ? `${id}*${qualifier}` : id}, found ${segment?.id ?? 'the end'}`);
    }
    at++;
    return segment!;
  };
  const isNext = (id: string, qualifier?: string) =>
    segments[at]?.id === id && (qualifier === undefined || segments[at]!.elements[1] === qualifier);
  const components = (segment: Segment, position: number) => element(segment, position).split(component);
  const takeAddress = (): PostalAddress => {
    const n3 = take('N3');
    const n4 = take('N4');
    return {
      line1: element(n3, 1),
      ...optional('line2', element(n3, 2)),
      city: element(n4, 1),
      state: element(n4, 2),
      postalCode: element(n4, 3),
    };
  };
  const takeDemographics = (): Demographics => {
    const address = takeAddress();
    const dmg = take('DMG', 'D8');
    return { birthDate: fromD8(element(dmg, 2)), sex: element(dmg, 3), address };
  };

  const bht = take('BHT', '0019');
  const submitterName = take('NM1', '41');
  const contact = take('PER', 'IC');
  const receiverName = take('NM1', '40');
  take('HL');
  const billingSpecialty = take('PRV', 'BI');
  const billingName = take('NM1', '85');
  const billingAddress = takeAddress();
  const billingTaxId = take('REF', 'EI');
  const hasPatientLevel = element(take('HL'), 4) === '1';
  const sbr = isNext('SBR', 'S') ? take('SBR', 'S') : take('SBR', 'P');
  const subscriberName = take('NM1', 'IL');
  const subscriberDemographics = hasPatientLevel ? null : takeDemographics();
  const payerName = take('NM1', 'PR');
  let patient: ProfessionalClaim['patient'] = null;
  if (hasPatientLevel) {
    take('HL');
    const relationshipCode = element(take('PAT'), 1);
    const name = personName(take('NM1', 'QC'));
    patient = { relationshipCode, name, demographics: takeDemographics() };
  }
  const clm = take('CLM');
  const payerClaimNumber = isNext('REF', 'F8') ? element(take('REF', 'F8'), 2) : '';
  const diagnoses = take('HI')
    .elements.slice(1)
    .map((value) => value.split(component)[1] ?? '');
  let renderingProvider: ProfessionalClaim['renderingProvider'];
  if (isNext('NM1', '82')) {
    const nm1 = take('NM1', '82');
    const taxonomyCode = isNext('PRV', 'PE') ? element(take('PRV', 'PE'), 3) : '';
    renderingProvider = { npi: element(nm1, 9), name: personName(nm1), ...optional('taxonomyCode', taxonomyCode) };
  }
  /** CAS segments in a row, one pair per reason/amount (CAS02/03, 05/06, ...). */
  const takeAdjustments = (): OtherPayerAdjustment[] => {
    const adjustments: OtherPayerAdjustment[] = [];
    while (isNext('CAS')) {
      const cas = take('CAS');
      for (let at = 2; element(cas, at) !== ''; at += 3)
        adjustments.push({
          group: element(cas, 1),
          reason: element(cas, at),
          amountCents: readCents(element(cas, at + 1)),
        });
    }
    return adjustments;
  };
  let otherPayer: OtherPayer | undefined;
  /** 2330B DTP*573: the other payer's adjudication date when no line carries its own (no 2430). */
  let claimAdjudicationDate = '';
  if (isNext('SBR')) {
    const otherSbr = take('SBR');
    const adjustments = takeAdjustments();
    const paidCents = readCents(element(take('AMT', 'D'), 2));
    // AMT*EAF (remaining patient liability) is the PR adjustments' sum, which the builder derives: not kept.
    if (isNext('AMT', 'EAF')) take('AMT', 'EAF');
    take('OI');
    const otherSubscriber = take('NM1', 'IL');
    const otherPayerName = take('NM1', 'PR');
    if (isNext('DTP', '573')) claimAdjudicationDate = fromD8(element(take('DTP', '573'), 3));
    otherPayer = {
      responsibility: element(otherSbr, 1),
      relationshipCode: element(otherSbr, 2),
      ...optional('groupNumber', element(otherSbr, 3)),
      subscriber: { memberId: element(otherSubscriber, 9), name: personName(otherSubscriber) },
      payer: { id: element(otherPayerName, 9), name: element(otherPayerName, 3) },
      paidCents,
      adjustments,
      lines: [],
    };
  }
  const lines: ServiceLine[] = [];
  while (isNext('LX')) {
    take('LX');
    const sv1 = take('SV1');
    const procedure = components(sv1, 1);
    lines.push({
      procedureCode: procedure[1] ?? '',
      modifiers: procedure.slice(2, 6),
      diagnosisPointers: components(sv1, 7).map(Number),
      units: Number(element(sv1, 4)),
      chargeCents: readCents(element(sv1, 2)),
      serviceDate: fromD8(element(take('DTP', '472'), 3)),
    });
    if (otherPayer && claimAdjudicationDate) {
      // No 2430: the other payer gave no line detail, which reads as nothing paid and no adjustment on the line.
      const line = lines.at(-1)!;
      otherPayer.lines.push({
        procedureCode: line.procedureCode,
        modifiers: line.modifiers,
        paidCents: 0,
        units: line.units,
        adjustments: [],
        adjudicationDate: claimAdjudicationDate,
      });
    } else if (otherPayer) {
      const svd = take('SVD');
      const procedure = components(svd, 3);
      const paidCents = readCents(element(svd, 2));
      const adjustments = takeAdjustments();
      const adjudicationDate = fromD8(element(take('DTP', '573'), 3));
      if (isNext('AMT', 'EAF')) take('AMT', 'EAF');
      otherPayer.lines.push({
        procedureCode: procedure[1] ?? '',
        modifiers: procedure.slice(2, 6),
        paidCents,
        units: Number(element(svd, 5)),
        adjustments,
        adjudicationDate,
      });
    }
  }
  take('SE');

  const isa = interchange.isa;
  return {
    interchangeControlNumber: Number(interchange.controlNumber),
    groupControlNumber: Number(group.controlNumber),
    transactionControlNumber: transaction.controlNumber,
    senderId: element(isa, 6).trimEnd(),
    receiverId: element(isa, 8).trimEnd(),
    usageIndicator: element(isa, 15) === 'T' ? 'T' : 'P',
    createdAt: fromBhtStamp(bht),
    batchId: element(bht, 3),
    submitter: {
      id: element(submitterName, 9),
      name: element(submitterName, 3),
      contactName: element(contact, 2) || element(submitterName, 3),
      ...(element(contact, 3) === 'EM' ? { email: element(contact, 4) } : { phone: element(contact, 4) }),
    },
    receiver: { id: element(receiverName, 9), name: element(receiverName, 3) },
    claim: {
      claimId: element(clm, 1),
      totalChargeCents: readCents(element(clm, 2)),
      // The second pass (frequency, REF*F8, SBR01 S, 2320...) only when sent, so an original reads as it always did.
      ...(components(clm, 5)[2] && components(clm, 5)[2] !== '1'
        ? { frequency: components(clm, 5)[2] as '7' | '8' }
        : {}),
      ...optional('payerClaimNumber', payerClaimNumber),
      ...(element(sbr, 1) === 'S' ? { payerResponsibility: 'S' as const } : {}),
      ...(otherPayer ? { otherPayer } : {}),
      placeOfService: components(clm, 5)[0] ?? '',
      diagnoses,
      lines,
      billingProvider: {
        npi: element(billingName, 9),
        name: element(billingName, 3),
        taxonomyCode: element(billingSpecialty, 3),
        taxId: element(billingTaxId, 2),
        address: billingAddress,
      },
      ...(renderingProvider ? { renderingProvider } : {}),
      payer: { id: element(payerName, 9), name: element(payerName, 3) },
      subscriber: {
        memberId: element(subscriberName, 9),
        ...optional('groupNumber', element(sbr, 3)),
        name: personName(subscriberName),
        demographics: subscriberDemographics,
      },
      patient,
    },
  };
}

/** An optional property, present only when the element was sent. */
function optional<K extends string>(key: K, value: string): { [P in K]?: string } {
  return (value === '' ? {} : { [key]: value }) as { [P in K]?: string };
}

function personName(nm1: Segment): PersonName {
  return { lastName: element(nm1, 3), firstName: element(nm1, 4), ...optional('middleName', element(nm1, 5)) };
}

function fromD8(value: string): string {
  if (!/^\d{8}$/.test(value)) fail('a D8 date is not CCYYMMDD');
  return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
}

/** An X12 R amount in integer cents, through the one decimal reader (never a float); a CAS amount may be negative. */
function readCents(value: string): number {
  const isNegative = value.startsWith('-');
  const decimal = readDecimal(isNegative ? value.slice(1) : value);
  const cents = decimal && decimalToCents(decimal);
  if (cents === null || !Number.isSafeInteger(cents)) return fail('an amount is not a decimal number of cents');
  return isNegative ? -cents : cents;
}

/** BHT04 (CCYYMMDD) and BHT05 (HHMM), the creation time build-837p.ts stamps, as UTC. */
function fromBhtStamp(bht: Segment): Date {
  const date = fromD8(element(bht, 4));
  const time = element(bht, 5);
  if (!/^\d{4}$/.test(time)) fail('BHT05 is not HHMM');
  return new Date(`${date}T${time.slice(0, 2)}:${time.slice(2, 4)}:00Z`);
}
