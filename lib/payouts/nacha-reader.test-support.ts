// The independent reader the tests use: the parser of @ach/ach (npm, MIT, by Eli Doran), a NACHA reader no one
// here wrote. Its from().to() helper is broken in 1.1.0 (it calls undefined names), so its parser stream is piped
// directly: it splits lines, reads each record by its own field table, and emits the parsed file.
import { Readable } from 'node:stream';
import type { Transform } from 'node:stream';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const AchParser = require('@ach/ach/lib/transforms/ach-parser') as new () => Transform;

type Fields = Record<string, string | number>;
export type ParsedAch = {
  file: Fields & { footer: Fields };
  batches: (Fields & { entries: (Fields & { addenda: Fields })[]; footer: Fields })[];
};

export function readWithAchLibrary(text: string): Promise<ParsedAch> {
  return new Promise((resolve, reject) => {
    const parser = new AchParser();
    parser.once('data', (parsed: ParsedAch) => resolve(parsed));
    parser.once('error', reject);
    parser.once('end', () => reject(new Error('the reader found no file control record')));
    Readable.from([text]).pipe(parser);
  });
}
