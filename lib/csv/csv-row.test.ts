import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv-row';

describe('csvRow', () => {
  it('quotes commas, quotes and line breaks, and ends the record with CRLF', () => {
    expect(csvRow(['a,b', 'say "hi"', 'two\nlines', 'plain'])).toBe('"a,b","say ""hi""","two\nlines",plain\r\n');
  });

  it.each([
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ['+1', "'+1"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
  ])('neutralises a text cell a spreadsheet would run as a formula: %s', (cell, expected) => {
    expect(csvCell(cell)).toBe(expected);
  });

  it('writes numbers as numbers (negative cents stay negative) and empty for null', () => {
    expect(csvRow([-1250, 0n, null, undefined, true])).toBe('-1250,0,,,true\r\n');
  });
});
