// NDJSON (http://ndjson.org, the Bulk Data output format) as lines, from a body that arrives in chunks: split on
// the LF byte (a UTF-8 multi-byte character never contains 0x0A, so a character cut between chunks is joined
// before it is decoded), a trailing CR dropped, blank lines skipped. A last line without its LF is still yielded:
// whether it is whole is for the JSON parser to say (a line cut short is never valid JSON). Holds one line at
// most, never the body.

/** Refuses a line longer than `maxLineBytes` (a runaway line would otherwise be held whole). */
export class NdjsonLineTooLong extends Error {
  constructor(readonly maxLineBytes: number) {
    super(`NDJSON line longer than ${maxLineBytes} bytes`);
  }
}

const LF = 0x0a;
const CR = 0x0d;

export async function* ndjsonLines(
  chunks: AsyncIterable<Buffer>,
  { maxLineBytes }: { maxLineBytes: number },
): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of chunks) {
    let start = 0;
    for (let lf = chunk.indexOf(LF, start); lf !== -1; lf = chunk.indexOf(LF, start)) {
      const piece = chunk.subarray(start, lf);
      start = lf + 1;
      if (pendingBytes + piece.length > maxLineBytes) throw new NdjsonLineTooLong(maxLineBytes);
      const line = pending.length ? Buffer.concat([...pending, piece]) : piece;
      pending = [];
      pendingBytes = 0;
      const text = decodeLine(line);
      if (text) yield text;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      pendingBytes += rest.length;
      if (pendingBytes > maxLineBytes) throw new NdjsonLineTooLong(maxLineBytes);
      // Copied: the stream may reuse the chunk's memory once we return to it.
      pending.push(Buffer.from(rest));
    }
  }
  if (pending.length) {
    const text = decodeLine(Buffer.concat(pending));
    if (text) yield text;
  }
}

function decodeLine(bytes: Buffer): string {
  const end = bytes.length && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
  const text = bytes.toString('utf8', 0, end);
  return text.trim() ? text : '';
}
