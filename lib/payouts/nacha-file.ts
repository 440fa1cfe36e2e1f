// A NACHA ACH file of CCD+ credits: one batch, each entry followed by one 05 addenda naming what it pays.
// Written by hand rather than with an npm writer: the candidates (nach2, @ach/ach) are unmaintained since 2016-17
// and pull moment/async or CoffeeScript-era helpers; the format is six fixed-width record types. Every rule a
// bank's file intake applies is checked twice: on the input (checkNachaInput, before any field is padded or cut)
// and on the rendered text (checkNachaText: lengths, order, counts, hash, totals, blocking), so a file that
// would be rejected at the bank is never written. Tests read the output back with @ach/ach, written by others.
import { isAbaRoutingNumber } from './aba';
import { isBankingDay } from './banking-days';

export const RECORD_LENGTH = 94;
export const BLOCKING_FACTOR = 10;
const MAX_ENTRY_CENTS = 9_999_999_999; // 10 digits, the entry's amount field
const MAX_TOTAL_CENTS = 999_999_999_999; // 12 digits, the control records' totals

/** Transaction codes of the credits we originate: 22/32 a real credit, 23/33 its zero-dollar prenote. */
export const TRANSACTION_CODES = {
  checking: { credit: '22', prenote: '23' },
  savings: { credit: '32', prenote: '33' },
} as const;

export type NachaEntry = {
  accountType: 'checking' | 'savings';
  prenote: boolean;
  routingNumber: string;
  accountNumber: string;
  amountCents: number;
  /** The receiver's identification number at us (field 15 chars): the clinic id, cut to fit. */
  individualId: string;
  receiverName: string;
  /** The 05 addenda's payment-related information (80 chars): the instruction id. */
  addenda: string;
};

export type NachaFileInput = {
  immediateDestination: string; // the bank's routing number (9 digits)
  destinationName: string;
  immediateOrigin: string; // 10 characters, e.g. "1" + the originator's EIN
  originName: string;
  companyName: string;
  companyId: string; // 10 characters
  odfiRoutingNumber: string; // our bank, 9 digits; its first 8 start every trace number
  companyEntryDescription: string;
  createdAt: { date: string; time: string }; // YYYY-MM-DD and HH:MM in the platform's zone
  effectiveDate: string; // YYYY-MM-DD, a banking day
  fileIdModifier: string;
  batchNumber: number;
  /** The first entry's 7-digit trace sequence; entries follow consecutively. */
  firstTraceSequence: number;
  entries: NachaEntry[];
};

export type Issue = { path: string; message: string };

// NACHA allows upper-case letters, digits and these symbols in alphanumeric fields.
const ALPHANUMERIC = /^[A-Z0-9 !"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]*$/;

export const traceNumber = (odfiRoutingNumber: string, sequence: number) =>
  odfiRoutingNumber.slice(0, 8) + String(sequence).padStart(7, '0');

/** Every rule on the input, all problems at once; an empty list means the file can be rendered. */
export function checkNachaInput(input: NachaFileInput): Issue[] {
  const issues: Issue[] = [];
  const add = (path: string, message: string) => issues.push({ path, message });
  const text = (path: string, value: string, max: number) => {
    if (value.length > max) add(path, `must be at most ${max} characters`);
    if (!ALPHANUMERIC.test(value.toUpperCase())) add(path, 'holds characters a NACHA file cannot carry');
  };
  if (!isAbaRoutingNumber(input.immediateDestination))
    add('immediateDestination', 'is not a routing number with a valid ABA check digit');
  if (!isAbaRoutingNumber(input.odfiRoutingNumber))
    add('odfiRoutingNumber', 'is not a routing number with a valid ABA check digit');
  if (!/^[ 0-9]\d{9}$/.test(input.immediateOrigin.padStart(10, ' ')))
    add('immediateOrigin', 'must be 10 characters: a digit or blank, then 9 digits');
  if (!/^[A-Z0-9]$/.test(input.fileIdModifier)) add('fileIdModifier', 'must be one upper-case letter or digit');
  text('destinationName', input.destinationName, 23);
  text('originName', input.originName, 23);
  text('companyName', input.companyName, 16);
  text('companyId', input.companyId, 10);
  text('companyEntryDescription', input.companyEntryDescription, 10);
  if (input.companyEntryDescription.trim() === '') add('companyEntryDescription', 'must not be blank');
  if (!isBankingDay(input.effectiveDate)) add('effectiveDate', `${input.effectiveDate} is not a banking day`);
  if (input.effectiveDate <= input.createdAt.date)
    add('effectiveDate', 'must be after the file creation date (ACH entries settle on a later banking day)');
  if (!Number.isInteger(input.batchNumber) || input.batchNumber < 1 || input.batchNumber > 9_999_999)
    add('batchNumber', 'must be 1 to 9999999');
  if (input.entries.length === 0) add('entries', 'a batch needs at least one entry');
  if (input.firstTraceSequence + input.entries.length > 10_000_000)
    add('entries', 'the trace sequence would pass 7 digits');
  let total = 0;
  input.entries.forEach((entry, i) => {
    const at = (field: string) => `entries[${i}].${field}`;
    if (!isAbaRoutingNumber(entry.routingNumber))
      add(at('routingNumber'), 'is not a routing number with a valid ABA check digit');
    if (!/^\d{4,17}$/.test(entry.accountNumber)) add(at('accountNumber'), 'must be 4 to 17 digits');
    if (!Number.isSafeInteger(entry.amountCents) || entry.amountCents < 0)
      add(at('amountCents'), 'must be a whole number of cents');
    else if (entry.prenote && entry.amountCents !== 0) add(at('amountCents'), 'a prenote carries zero dollars');
    else if (!entry.prenote && entry.amountCents === 0) add(at('amountCents'), 'a credit must be more than zero');
    else if (entry.amountCents > MAX_ENTRY_CENTS) add(at('amountCents'), 'does not fit the 10-digit amount field');
    else total += entry.amountCents;
    text(at('individualId'), entry.individualId, 15);
    text(at('receiverName'), entry.receiverName, 22);
    if (entry.receiverName.trim() === '') add(at('receiverName'), 'must not be blank');
    text(at('addenda'), entry.addenda, 80);
  });
  if (total > MAX_TOTAL_CENTS) add('entries', 'the batch total does not fit the 12-digit total field');
  return issues;
}

const alpha = (value: string, width: number) => value.toUpperCase().slice(0, width).padEnd(width, ' ');
const num = (value: number | bigint | string, width: number) => String(value).padStart(width, '0');
const yymmdd = (day: string) => day.slice(2, 4) + day.slice(5, 7) + day.slice(8, 10);

/** The sum of the entries' 8-digit RDFI ids, kept to its low 10 digits as the control records carry it. */
export function entryHash(routingNumbers: string[]): string {
  const sum = routingNumbers.reduce((total, routing) => total + BigInt(routing.slice(0, 8)), 0n);
  return num(sum % 10_000_000_000n, 10);
}

/** The file text, records of 94 characters ending in "\n", padded with 9s to a multiple of 10 records. */
export function renderNachaFile(input: NachaFileInput): string {
  const odfi8 = input.odfiRoutingNumber.slice(0, 8);
  const batchNumber = num(input.batchNumber, 7);
  const records: string[] = [];
  records.push(
    '1' +
      '01' +
      ' ' +
      input.immediateDestination +
      input.immediateOrigin.padStart(10, ' ') +
      yymmdd(input.createdAt.date) +
      input.createdAt.time.replace(':', '') +
      input.fileIdModifier +
      '094' +
      num(BLOCKING_FACTOR, 2) +
      '1' +
      alpha(input.destinationName, 23) +
      alpha(input.originName, 23) +
      alpha('', 8),
  );
  records.push(
    '5' +
      '220' + // credits only
      alpha(input.companyName, 16) +
      alpha('', 20) +
      alpha(input.companyId, 10) +
      'CCD' +
      alpha(input.companyEntryDescription, 10) +
      alpha('', 6) +
      yymmdd(input.effectiveDate) +
      alpha('', 3) + // settlement date: the ACH operator fills it in
      '1' +
      odfi8 +
      batchNumber,
  );
  let credits = 0n;
  input.entries.forEach((entry, i) => {
    const trace = traceNumber(input.odfiRoutingNumber, input.firstTraceSequence + i);
    const codes = TRANSACTION_CODES[entry.accountType];
    credits += BigInt(entry.amountCents);
    records.push(
      '6' +
        (entry.prenote ? codes.prenote : codes.credit) +
        entry.routingNumber +
        alpha(entry.accountNumber, 17) +
        num(entry.amountCents, 10) +
        alpha(entry.individualId, 15) +
        alpha(entry.receiverName, 22) +
        alpha('', 2) +
        '1' +
        trace,
    );
    records.push('7' + '05' + alpha(entry.addenda, 80) + '0001' + trace.slice(8));
  });
  const entryAndAddenda = input.entries.length * 2;
  const hash = entryHash(input.entries.map((entry) => entry.routingNumber));
  records.push(
    '8' +
      '220' +
      num(entryAndAddenda, 6) +
      hash +
      num(0, 12) +
      num(credits, 12) +
      alpha(input.companyId, 10) +
      alpha('', 19) +
      alpha('', 6) +
      odfi8 +
      batchNumber,
  );
  const blocks = Math.ceil((records.length + 1) / BLOCKING_FACTOR);
  records.push(
    '9' + num(1, 6) + num(blocks, 6) + num(entryAndAddenda, 8) + hash + num(0, 12) + num(credits, 12) + alpha('', 39),
  );
  while (records.length % BLOCKING_FACTOR !== 0) records.push('9'.repeat(RECORD_LENGTH));
  return records.map((record) => record + '\n').join('');
}

/**
 * The rendered file's structure as a bank's intake checks it: every record 94 characters, record order, the
 * batch and file controls agreeing with the entries (counts, entry hash, debit and credit totals), blocking.
 */
export function checkNachaText(text: string): Issue[] {
  const issues: Issue[] = [];
  const add = (path: string, message: string) => issues.push({ path, message });
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  lines.forEach((line, i) => {
    if (line.length !== RECORD_LENGTH) add(`file.records[${i}]`, `is ${line.length} characters, not 94`);
  });
  if (lines.length % BLOCKING_FACTOR !== 0) add('file', `has ${lines.length} records, not a multiple of 10`);
  const content = lines.filter((line) => line !== '9'.repeat(RECORD_LENGTH));
  const kinds = content.map((line) => line[0]).join('');
  if (!/^15(67)+89$/.test(kinds)) {
    add('file', 'records are not in the order file header, batch header, entry and addenda pairs, controls');
    return issues;
  }
  const entries = content.filter((line) => line[0] === '6');
  const hash = entryHash(entries.map((line) => line.slice(3, 11)));
  const credits = entries.reduce((total, line) => total + BigInt(line.slice(29, 39)), 0n);
  const count = entries.length * 2;
  const batchControl = content[content.length - 2]!;
  const fileControl = content[content.length - 1]!;
  const batchHeader = content[1]!;
  if (Number(batchControl.slice(4, 10)) !== count) add('batchControl.entryAddendaCount', 'does not match the batch');
  if (batchControl.slice(10, 20) !== hash) add('batchControl.entryHash', 'does not match the entries');
  if (BigInt(batchControl.slice(20, 32)) !== 0n) add('batchControl.totalDebit', 'must be zero in a credits batch');
  if (BigInt(batchControl.slice(32, 44)) !== credits) add('batchControl.totalCredit', 'does not match the entries');
  if (batchControl.slice(79, 94) !== batchHeader.slice(79, 94))
    add('batchControl.batchNumber', 'does not match the batch header');
  if (Number(fileControl.slice(1, 7)) !== 1) add('fileControl.batchCount', 'does not match the file');
  if (Number(fileControl.slice(7, 13)) !== lines.length / BLOCKING_FACTOR)
    add('fileControl.blockCount', 'does not match the file');
  if (Number(fileControl.slice(13, 21)) !== count) add('fileControl.entryAddendaCount', 'does not match the file');
  if (fileControl.slice(21, 31) !== hash) add('fileControl.entryHash', 'does not match the entries');
  if (BigInt(fileControl.slice(43, 55)) !== credits) add('fileControl.totalCredit', 'does not match the entries');
  entries.forEach((line, i) => {
    if (!isAbaRoutingNumber(line.slice(3, 12))) add(`entries[${i}].routingNumber`, 'fails the ABA check digit');
    const addenda = content[2 + i * 2 + 1]!;
    if (addenda.slice(87, 94) !== line.slice(87, 94))
      add(`entries[${i}].addenda`, 'does not carry its entry sequence number');
  });
  return issues;
}
