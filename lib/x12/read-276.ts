// Reads a 276 of the shape build-276.ts writes back into that builder's input: the sandbox payer reads the request
// it answers, and the round-trip tests prove the two agree. It is not a general 276 reader: a segment we never
// write, or one out of our order, is an error.
import { decimalToCents, readDecimal } from '../money/decimal';
import type { Build276Input } from './build-276';
import { element } from './element';
import { readInterchange, type Segment } from './read-interchange';
import { X12ReadError } from './x12-read-error';

const fail = (reason: string): never => {
  throw new X12ReadError('unreadable', reason);
};

/**
 * Throws X12ReadError('unreadable') for anything but one 276 claim status request in build-276.ts's shape. When a
 * dependent is the patient, the subscriber's birth date and sex were not sent: they read back as '' and U.
 */
export function read276(x12: string): Build276Input {
  const interchange = readInterchange(x12);
  const group = interchange.groups.length === 1 ? interchange.groups[0]! : fail('expected one functional group');
  const transaction = group.transactions.length === 1 ? group.transactions[0]! : fail('expected one transaction set');
  if (group.functionalId !== 'HR' || transaction.id !== '276') fail('not a 276 in an HR functional group');
  const segments = transaction.segments;
  let at = 1; // after ST

  const take = (id: string, qualifier?: string): Segment => {
    const segment = segments[at];
    if (!segment || segment.id !== id || (qualifier !== undefined && segment.elements[1] !== qualifier)) {
      fail(`segment ${at + 1}: expected ${qualifier ? `${id}*${qualifier}` : id}, found ${segment?.id ?? 'the end'}`);
    }
    at++;
    return segment!;
  };
  const isNext = (id: string, qualifier: string) => segments[at]?.id === id && segments[at]!.elements[1] === qualifier;

  const bht = take('BHT', '0010');
  take('HL');
  const payer = take('NM1', 'PR');
  take('HL');
  const receiver = take('NM1', '41');
  take('HL');
  const provider = take('NM1', '1P');
  const hasPatientLevel = element(take('HL'), 4) === '1';
  let dmg: Segment;
  let subscriber: Segment;
  let patientName: Segment | null = null;
  if (hasPatientLevel) {
    subscriber = take('NM1', 'IL');
    take('HL');
    dmg = take('DMG', 'D8');
    patientName = take('NM1', 'QC');
  } else {
    dmg = take('DMG', 'D8');
    subscriber = take('NM1', 'IL');
  }
  const trn = take('TRN', '1');
  const payerClaimId = isNext('REF', '1K') ? element(take('REF', '1K'), 2) : '';
  const claimId = element(take('REF', 'EJ'), 2);
  const amount = take('AMT', 'T3');
  const dtp = take('DTP', '472');
  take('SE');

  const demographics = { birthDate: fromD8(element(dmg, 2)), sex: readSex(element(dmg, 3)) };
  const isa = interchange.isa;
  return {
    interchangeControlNumber: Number(interchange.controlNumber),
    groupControlNumber: Number(group.controlNumber),
    transactionControlNumber: transaction.controlNumber,
    senderId: element(isa, 6).trimEnd(),
    receiverId: element(isa, 8).trimEnd(),
    usageIndicator: element(isa, 15) === 'T' ? 'T' : 'P',
    createdAt: fromStamp(element(bht, 4), element(bht, 5)),
    payer: { id: element(payer, 9), name: element(payer, 3) },
    receiver: { id: element(receiver, 9), name: element(receiver, 3) },
    provider: { npi: element(provider, 9), name: element(provider, 3) },
    // The DMG is the patient's: the subscriber's birth date and sex are not sent when a dependent is the patient.
    subscriber: {
      memberId: element(subscriber, 9),
      ...personName(subscriber),
      ...(patientName ? { birthDate: '', sex: 'U' as const } : demographics),
    },
    ...(patientName ? { patient: { ...personName(patientName), ...demographics } } : {}),
    claim: {
      claimId,
      ...(payerClaimId === '' ? {} : { payerClaimId }),
      totalChargeCents: readCents(element(amount, 2)),
      serviceDates: readPeriod(element(dtp, 2), element(dtp, 3)),
    },
    traceNumber: element(trn, 2),
  };
}

function personName(nm1: Segment): { lastName: string; firstName: string; middleName?: string } {
  const middleName = element(nm1, 5);
  return { lastName: element(nm1, 3), firstName: element(nm1, 4), ...(middleName === '' ? {} : { middleName }) };
}

function readSex(value: string): 'F' | 'M' | 'U' {
  return value === 'F' || value === 'M' ? value : 'U';
}

function fromD8(value: string): string {
  if (!/^\d{8}$/.test(value)) fail('a D8 date is not CCYYMMDD');
  return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
}

/** DTP02 D8 or RD8 and DTP03 to { from, to? }. */
function readPeriod(format: string, value: string): { from: string; to?: string } {
  if (format === 'D8') return { from: fromD8(value) };
  if (format !== 'RD8') fail('DTP*472 is neither D8 nor RD8');
  const [from = '', to = '', ...rest] = value.split('-');
  if (rest.length > 0) fail('an RD8 period is not CCYYMMDD-CCYYMMDD');
  return { from: fromD8(from), to: fromD8(to) };
}

/** An unsigned X12 R amount in integer cents, through the one decimal reader (never a float). */
function readCents(value: string): number {
  const decimal = readDecimal(value);
  const cents = decimal && decimalToCents(decimal);
  if (cents === null || !Number.isSafeInteger(cents)) return fail('an amount is not a decimal number of cents');
  return cents;
}

/** BHT04 (CCYYMMDD) and BHT05 (HHMM) as UTC. */
function fromStamp(date: string, time: string): Date {
  const day = fromD8(date);
  if (!/^\d{4}$/.test(time)) fail('BHT05 is not HHMM');
  return new Date(`${day}T${time.slice(0, 2)}:${time.slice(2, 4)}:00Z`);
}
