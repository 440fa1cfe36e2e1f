import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { abaCheckDigit, isAbaRoutingNumber } from './aba';
import { checkNachaInput, checkNachaText, entryHash, renderNachaFile, type NachaFileInput } from './nacha-file';
import { exampleNachaInput } from './nacha-fixture';
import { readWithAchLibrary } from './nacha-reader.test-support';

const messagesOf = (input: NachaFileInput) => checkNachaInput(input).map((issue) => `${issue.path} ${issue.message}`);
const withEntry = (change: Partial<NachaFileInput['entries'][number]>): NachaFileInput => {
  const input = exampleNachaInput();
  input.entries[0] = { ...input.entries[0]!, ...change };
  return input;
};

describe('ABA routing numbers', () => {
  it('accepts a valid check digit and refuses a wrong one', () => {
    expect(isAbaRoutingNumber('021000021')).toBe(true);
    expect(isAbaRoutingNumber('011000015')).toBe(true);
    expect(isAbaRoutingNumber('021000022')).toBe(false);
    expect(isAbaRoutingNumber('02100002')).toBe(false);
    expect(isAbaRoutingNumber('02100002a')).toBe(false);
    expect(abaCheckDigit('02100002')).toBe('1');
  });
});

describe('NACHA input rules, one by one', () => {
  it('the example passes', () => expect(checkNachaInput(exampleNachaInput())).toEqual([]));
  it('routing number check digit', () =>
    expect(messagesOf(withEntry({ routingNumber: '011000016' }))).toEqual([
      'entries[0].routingNumber is not a routing number with a valid ABA check digit',
    ]));
  it('account number of 4 to 17 digits', () => {
    expect(messagesOf(withEntry({ accountNumber: '123' }))).toEqual([
      'entries[0].accountNumber must be 4 to 17 digits',
    ]);
    expect(messagesOf(withEntry({ accountNumber: '1'.repeat(18) }))).toHaveLength(1);
  });
  it('a prenote is zero dollars and a credit is not', () => {
    expect(messagesOf(withEntry({ prenote: true }))).toEqual(['entries[0].amountCents a prenote carries zero dollars']);
    expect(messagesOf(withEntry({ amountCents: 0 }))).toEqual([
      'entries[0].amountCents a credit must be more than zero',
    ]);
    expect(messagesOf(withEntry({ amountCents: 10_000_000_000 }))).toEqual([
      'entries[0].amountCents does not fit the 10-digit amount field',
    ]);
    expect(messagesOf(withEntry({ amountCents: 1.5 }))).toEqual([
      'entries[0].amountCents must be a whole number of cents',
    ]);
  });
  it('names fit their fields in NACHA characters', () => {
    expect(messagesOf(withEntry({ receiverName: 'A'.repeat(23) }))).toEqual([
      'entries[0].receiverName must be at most 22 characters',
    ]);
    expect(messagesOf(withEntry({ receiverName: 'Clínica' }))).toEqual([
      'entries[0].receiverName holds characters a NACHA file cannot carry',
    ]);
  });
  it('effective date on a banking day after the creation date', () => {
    expect(messagesOf({ ...exampleNachaInput(), effectiveDate: '2026-11-26' })).toEqual([
      'effectiveDate 2026-11-26 is not a banking day',
    ]);
    expect(messagesOf({ ...exampleNachaInput(), effectiveDate: '2026-11-25' })).toEqual([
      'effectiveDate must be after the file creation date (ACH entries settle on a later banking day)',
    ]);
  });
  it('batch total fits 12 digits', () => {
    const input = exampleNachaInput();
    input.entries = Array.from({ length: 101 }, () => ({ ...input.entries[0]!, amountCents: 9_999_999_999 }));
    expect(messagesOf(input)).toEqual(['entries the batch total does not fit the 12-digit total field']);
  });
  it('lists every problem at once', () => {
    const input = withEntry({ routingNumber: '123456789', accountNumber: 'x' });
    input.immediateDestination = '000000001';
    expect(messagesOf(input)).toHaveLength(3);
  });
});

describe('NACHA rendering', () => {
  const text = renderNachaFile(exampleNachaInput());

  it('matches the golden file byte for byte', () => {
    const golden = readFileSync(path.join(__dirname, 'golden/example.ach'), 'utf8');
    expect(text).toBe(golden);
  });

  it('writes 94-character records blocked by 10 and passes its own file rules', () => {
    const lines = text.trimEnd().split('\n');
    expect(lines.every((line) => line.length === 94)).toBe(true);
    expect(lines).toHaveLength(10);
    expect(checkNachaText(text)).toEqual([]);
  });

  it('blocks a longer file to the next multiple of 10 records', () => {
    const input = exampleNachaInput();
    input.entries = Array.from({ length: 4 }, () => input.entries[0]!);
    const lines = renderNachaFile(input).trimEnd().split('\n');
    expect(lines).toHaveLength(20); // 1 + 1 + 8 + 1 + 1 = 12 records, padded
    expect(lines.slice(12).every((line) => line === '9'.repeat(94))).toBe(true);
    expect(lines[11]!.slice(7, 13)).toBe('000002');
  });

  it('keeps the entry hash to its low 10 digits when the sum overflows', () => {
    const routings = Array.from({ length: 200 }, () => '999999990');
    expect((99_999_999n * 200n).toString()).toHaveLength(11);
    expect(entryHash(routings)).toBe(((99_999_999n * 200n) % 10_000_000_000n).toString().padStart(10, '0'));
  });

  it('finds a broken record length, a wrong hash, a wrong total and broken blocking', () => {
    const lines = text.split('\n');
    const short = [...lines];
    short[2] = short[2]!.slice(0, 93);
    expect(checkNachaText(short.join('\n'))).toContainEqual({
      path: 'file.records[2]',
      message: 'is 93 characters, not 94',
    });
    const badHash = [...lines];
    badHash[6] = badHash[6]!.slice(0, 10) + '0000000000' + badHash[6]!.slice(20);
    expect(checkNachaText(badHash.join('\n'))).toContainEqual({
      path: 'batchControl.entryHash',
      message: 'does not match the entries',
    });
    const badTotal = [...lines];
    badTotal[7] = badTotal[7]!.slice(0, 43) + '000000000001' + badTotal[7]!.slice(55);
    expect(checkNachaText(badTotal.join('\n'))).toContainEqual({
      path: 'fileControl.totalCredit',
      message: 'does not match the entries',
    });
    const unblocked = lines.slice(0, 8).join('\n') + '\n';
    expect(checkNachaText(unblocked)).toContainEqual({ path: 'file', message: 'has 8 records, not a multiple of 10' });
  });
});

describe('read back by an independent NACHA reader (@ach/ach)', () => {
  it('agrees field for field', async () => {
    const input = exampleNachaInput();
    const ach = await readWithAchLibrary(renderNachaFile(input));
    expect(ach.file).toMatchObject({
      priority: 1,
      destination: ' 021000021',
      origin: '1123456789',
      creationDate: '261125',
      creationTime: '1405',
      idModifier: 'A',
      recordSize: '094',
      blockingFactor: '10',
      formatCode: '1',
      destinationName: 'JPMORGAN CHASE',
      originName: 'SVC REVENUE PLATFORM',
    });
    expect(ach.batches).toHaveLength(1);
    const batch = ach.batches[0]!;
    expect(batch).toMatchObject({
      serviceClassCode: 220,
      companyName: 'SVC PAYOUTS',
      companyId: '1123456789',
      entryClassCode: 'CCD',
      description: 'PAYOUT',
      effectiveDate: '261127',
      originatorStatusCode: '1',
      originatingDFIIdentification: '02100002',
      num: 1,
    });
    expect(batch.entries).toHaveLength(2);
    const codes = ['22', '33'];
    input.entries.forEach((entry, i) => {
      const read = batch.entries[i]!;
      expect(read.transactionCode).toBe(codes[i]);
      // The reader keeps numeric fields as numbers: leading zeros go.
      expect(String(read.receivingDFIIdentification).padStart(8, '0') + String(read.checkDigit)).toBe(
        entry.routingNumber,
      );
      expect(read.dfiAccount).toBe(entry.accountNumber);
      expect(read.amount).toBe(entry.amountCents);
      expect(read.identificationNumber).toBe(entry.individualId.toUpperCase());
      expect(read.receivingCompanyName).toBe(entry.receiverName.toUpperCase());
      expect(read.addendaIndicator).toBe('1');
      expect(read.traceNumber).toBe(Number(`02100002${String(i + 1).padStart(7, '0')}`));
      expect(read.addenda).toEqual({
        recordType: '7',
        type: '05',
        info: entry.addenda.toUpperCase(),
        num: 1,
        entryNum: i + 1,
      });
    });
    expect(batch.footer).toMatchObject({
      serviceClassCode: 220,
      entryAndAddendaCount: 4,
      entryHash: 1100001 + 2600959, // the two RDFI ids 01100001 and 02600959
      totalDebit: 0,
      totalCredit: 935000,
      companyId: '1123456789',
      originatingDFIIdentification: '02100002',
      num: 1,
    });
    expect(ach.file.footer).toMatchObject({
      batchCount: 1,
      blockCount: 1,
      entryAndAddendaCount: 4,
      entryHash: 1100001 + 2600959,
      totalDebit: 0,
      totalCredit: 935000,
    });
  });
});
