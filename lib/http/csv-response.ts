// A streamed text/csv download: the header row, then each row as the source yields it, so a long list is never
// held whole in memory. The edge renders; the domain only yields plain rows (lib/csv/csv-row.ts makes them safe).
import { csvRow, type CsvCell } from '../csv/csv-row';
import { CSV_TYPE, type CsvTable } from '../csv/csv-table';

export function csvResponse(table: CsvTable): Response {
  const encoder = new TextEncoder();
  const source = table.rows;
  const rows: AsyncIterator<readonly CsvCell[]> | Iterator<readonly CsvCell[]> =
    Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  // Pulled a row at a time, as the client reads: a slow reader holds back the source, not the server's memory.
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvRow(table.header)));
    },
    async pull(controller) {
      const next = await rows.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(csvRow(next.value)));
    },
    async cancel() {
      await rows.return?.();
    },
  });
  const filename = table.filename.replace(/[^A-Za-z0-9._-]/g, '_');
  return new Response(stream, {
    headers: {
      'content-type': `${CSV_TYPE}; charset=utf-8`,
      'content-disposition': `attachment; filename="${filename}.csv"`,
      'cache-control': 'no-store',
    },
  });
}
