// A renderer for a read that answers JSON by default and a CSV download with `?format=csv` (the query schema
// declares `format`), from the same result: what the screen shows is what the file holds.
import type { z } from 'zod';
import type { CsvTable } from '../csv/csv-table';
import { csvResponse } from './csv-response';
import { json } from './responses';
import type { RenderContext } from './route';

export function csvOrJson<S extends z.ZodType>(schema: S, toCsv: (value: z.infer<S>) => CsvTable) {
  return (result: unknown, { request }: RenderContext): Response => {
    const value = schema.parse(result);
    return new URL(request.url).searchParams.get('format') === 'csv' ? csvResponse(toCsv(value)) : json(value);
  };
}
