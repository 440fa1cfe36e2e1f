import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_INTERCHANGE_LENGTH, readInterchange } from './read-interchange';
import { X12ReadError } from './x12-read-error';

const ppo = fs.readFileSync(path.join(import.meta.dirname, 'fixtures', '271-subscriber-ppo.x12'), 'utf8');

function reasonOf(text: string): string | null {
  try {
    readInterchange(text);
    return null;
  } catch (error) {
    if (!(error instanceof X12ReadError)) throw error;
    return `${error.kind}: ${error.reason}`;
  }
}

describe('readInterchange', () => {
  it('takes the delimiters from the ISA and splits the envelope', () => {
    const interchange = readInterchange(ppo);
    expect(interchange.delimiters).toEqual({ element: '*', repetition: '^', component: ':', segment: '~' });
    expect(interchange.controlNumber).toBe('000000101');
    expect(
      interchange.groups.map((g) => [
        g.functionalId,
        g.controlNumber,
        g.transactions.map((t) => [t.id, t.controlNumber, t.segments.length]),
      ]),
    ).toEqual([['HB', '101', [['271', '0001', 30]]]]);
    expect(interchange.groups[0]!.transactions[0]!.segments[1]).toEqual({
      id: 'BHT',
      elements: ['BHT', '0022', '11', 'TRACE0001', '20250301', '120000'],
      raw: 'BHT*0022*11*TRACE0001*20250301*120000',
    });
  });

  it('accepts a BOM, leading blank lines, no line breaks at all and a newline as the segment terminator', () => {
    const oneLine = ppo.replaceAll('\n', '');
    const newlineTerminated = ppo.replaceAll('~\n', '\n').replace('*:\n', '*:\n');
    expect(readInterchange(`\uFEFF\r\n${oneLine}`).groups[0]!.transactions[0]!.segments).toHaveLength(30);
    const read = readInterchange(newlineTerminated);
    expect([read.delimiters.segment, read.groups[0]!.transactions[0]!.segments.length]).toEqual(['\n', 30]);
  });

  it.each([
    [
      'IEA control number differs',
      ppo.replace('IEA*1*000000101', 'IEA*1*000000999'),
      'unreadable: IEA02 does not match ISA13',
    ],
    [
      'IEA group count differs',
      ppo.replace('IEA*1*', 'IEA*2*'),
      'unreadable: IEA01 does not match the number of functional groups',
    ],
    [
      'GE count differs',
      ppo.replace('GE*1*101', 'GE*2*101'),
      'unreadable: GE01 does not match the number of transaction sets',
    ],
    ['GE control number differs', ppo.replace('GE*1*101', 'GE*1*102'), 'unreadable: GE02 does not match GS06'],
    ['SE control number differs', ppo.replace('SE*30*0001', 'SE*30*0002'), 'unreadable: SE02 does not match ST02'],
    ['SE missing', ppo.replace('SE*30*0001~\n', ''), 'unreadable: missing SE before GE'],
    ['GE missing', ppo.replace('GE*1*101~\n', ''), 'unreadable: missing GE before IEA'],
    ['IEA missing', ppo.replace('IEA*1*000000101~\n', ''), 'unreadable: missing IEA'],
    ['segment after IEA', `${ppo}ST*271*0002~\n`, 'unreadable: segment ST after IEA'],
    [
      'segment outside ST/SE',
      ppo.replace('GE*1*101', 'EB*1~\nGE*1*101'),
      'unreadable: segment EB outside a transaction set',
    ],
    ['lower-case segment id', ppo.replace('BHT*', 'bht*'), 'unreadable: not X12: segment 4 has no valid segment id'],
    ['ISA cut short', ppo.slice(0, 80), 'unreadable: ISA segment is shorter than 106 characters'],
    ['empty text', '', 'unreadable: not X12: the text does not start with an ISA segment'],
    ['JSON', '{"error":"bad gateway"}', 'unreadable: not X12: the text does not start with an ISA segment'],
  ])('refuses an interchange when %s', (_case, text, reason) => {
    expect(reasonOf(text)).toBe(reason);
  });

  it('reads an interchange of exactly 1 MiB and refuses one character more before parsing it', () => {
    // Trailing line breaks are allowed after a terminator, so they pad a real interchange to the limit.
    const atLimit = ppo + '\n'.repeat(MAX_INTERCHANGE_LENGTH - ppo.length);
    expect([MAX_INTERCHANGE_LENGTH, atLimit.length, reasonOf(atLimit)]).toEqual([1_048_576, 1_048_576, null]);
    expect(reasonOf(`${atLimit}\n`)).toBe('unreadable: interchange is larger than 1048576 characters (1 MiB)');
    expect(reasonOf('x'.repeat(MAX_INTERCHANGE_LENGTH + 1))).toBe(
      'unreadable: interchange is larger than 1048576 characters (1 MiB)',
    );
  });
});
