// Writes one X12 interchange (ISA/GS/ST..SE/GE/IEA) around a transaction set body, with the counts and control
// numbers the envelope needs. What goes in the body is build-270.ts's and build-271.ts's business.

export type InterchangeEnvelope = {
  /** ISA13 and IEA02, 1..999999999. */
  interchangeControlNumber: number;
  /** GS06 and GE02, 1..999999999. */
  groupControlNumber: number;
  /** ST02 and SE02, 4..9 characters. */
  transactionControlNumber: string;
  senderId: string;
  receiverId: string;
  /** ISA15: P production, T test. */
  usageIndicator?: 'P' | 'T';
  /** Stamped in ISA09/10 and GS04/05 as UTC. */
  createdAt: Date;
};

export type TransactionSetSpec = {
  functionalId: string;
  transactionSetId: string;
  /** GS08, and ST03 unless `writesSt03` is false. */
  implementationReference: string;
  /** False for a guide that does not use ST03: the 835's (005010X221A1). */
  writesSt03?: boolean;
};

// We always write the common delimiters; readers take them from the ISA anyway.
const ELEMENT = '*';
const REPETITION = '^';
const COMPONENT = ':';
const TERMINATOR = '~';
const RESERVED = /[*^:~\r\n]/;

export const REPETITION_SEPARATOR = REPETITION;

/** One element: a simple value, or a composite's components, which are joined with the component separator. */
export type ElementValue = string | readonly string[];

/** Throws RangeError when a value holds a delimiter or an envelope value is out of range. */
export function buildInterchange(
  envelope: InterchangeEnvelope,
  spec: TransactionSetSpec,
  body: readonly (readonly ElementValue[])[],
): string {
  const { interchangeControlNumber: icn, groupControlNumber: gcn, transactionControlNumber: tcn } = envelope;
  if (!Number.isInteger(icn) || icn < 1 || icn > 999_999_999)
    throw new RangeError('interchangeControlNumber must be 1..999999999');
  if (!Number.isInteger(gcn) || gcn < 1 || gcn > 999_999_999)
    throw new RangeError('groupControlNumber must be 1..999999999');
  if (!/^[0-9A-Za-z]{4,9}$/.test(tcn)) throw new RangeError('transactionControlNumber must be 4..9 alphanumerics');
  if (envelope.senderId.length > 15 || envelope.receiverId.length > 15)
    throw new RangeError('ISA06/ISA08 ids are at most 15 characters');

  const at = envelope.createdAt;
  const ccyymmdd = `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}`;
  const hhmm = `${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}`;
  const isaControl = pad(icn, 9);

  const isa = [
    'ISA',
    '00',
    ' '.repeat(10),
    '00',
    ' '.repeat(10),
    'ZZ',
    envelope.senderId.padEnd(15, ' '),
    'ZZ',
    envelope.receiverId.padEnd(15, ' '),
    ccyymmdd.slice(2),
    hhmm,
    REPETITION,
    '00501',
    isaControl,
    '0',
    envelope.usageIndicator ?? 'P',
    COMPONENT,
  ].join(ELEMENT);
  const st03 = spec.writesSt03 === false ? '' : spec.implementationReference;
  const transaction = [['ST', spec.transactionSetId, tcn, st03], ...body];
  const lines = [
    isa,
    segment([
      'GS',
      spec.functionalId,
      envelope.senderId,
      envelope.receiverId,
      ccyymmdd,
      hhmm,
      String(gcn),
      'X',
      spec.implementationReference,
    ]),
    ...transaction.map(segment),
    // SE01 counts ST through SE inclusive (X12.6).
    segment(['SE', String(transaction.length + 1), tcn]),
    segment(['GE', '1', String(gcn)]),
    segment(['IEA', '1', isaControl]),
  ];
  return lines.join(`${TERMINATOR}\n`) + `${TERMINATOR}\n`;
}

/** Elements of one segment; trailing empty elements (and components) are dropped as X12.6 requires. */
function segment(elements: readonly ElementValue[]): string {
  const id = elements[0] as string;
  let text = id;
  let pending = ''; // separators owed to empty elements, written only once a value follows them
  for (let i = 1; i < elements.length; i++) {
    const value = elements[i]!;
    const written = typeof value === 'string' ? checked(id, value) : composite(id, value);
    pending += ELEMENT;
    if (written !== '') {
      text += pending + written;
      pending = '';
    }
  }
  return text;
}

function composite(id: string, components: readonly string[]): string {
  let text = checked(id, components[0] ?? '');
  let pending = ''; // as in segment()
  for (let i = 1; i < components.length; i++) {
    const written = checked(id, components[i]!);
    pending += COMPONENT;
    if (written !== '') {
      text += pending + written;
      pending = '';
    }
  }
  return text;
}

function checked(id: string, value: string): string {
  if (value !== '' && RESERVED.test(value)) throw new RangeError(`value for ${id} holds a delimiter character`);
  return value;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}
