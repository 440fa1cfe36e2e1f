// One CSV record (RFC 4180) from plain cell values, safe to open in a spreadsheet. Pure. A cell that a spreadsheet
// would read as a formula (starting with = + - @, or a tab or carriage return that some strip first) is prefixed
// with ' (OWASP "CSV injection"); numbers are written as they are, so negative cents stay numbers.
export type CsvCell = string | number | bigint | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The record with its CRLF line end. */
export const csvRow = (cells: readonly CsvCell[]): string => `${cells.map(csvCell).join(',')}\r\n`;
