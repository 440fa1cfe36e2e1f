// A list as a CSV download: what the domain hands the edge (lib/http/csv-response.ts streams it), and the `format`
// query parameter by which a list endpoint is asked for it instead of JSON.
import { z } from 'zod';
import type { CsvCell } from './csv-row';

export type CsvTable = {
  /** The download's file name, without a path; `.csv` is added. */
  filename: string;
  header: readonly string[];
  rows: Iterable<readonly CsvCell[]> | AsyncIterable<readonly CsvCell[]>;
};

/** `format=csv`: the same rows as the JSON answer, as a streamed text/csv download. */
export const CsvFormat = z.enum(['json', 'csv']).default('json');
export const CsvFormatQuery = z.object({ format: CsvFormat });

export const CSV_TYPE = 'text/csv';
/** The OpenAPI schema of the streamed form: one record per line, the header first. */
export const CsvRecord = z.string().describe('one CSV record (RFC 4180), the header record first');
