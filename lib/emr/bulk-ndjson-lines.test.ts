import { describe, expect, it } from 'vitest';
import { ndjsonLines, NdjsonLineTooLong } from './bulk-ndjson-lines';

async function* chunksOf(...parts: (string | Buffer)[]): AsyncGenerator<Buffer> {
  for (const part of parts) yield Buffer.isBuffer(part) ? part : Buffer.from(part, 'utf8');
}

async function collect(chunks: AsyncIterable<Buffer>, maxLineBytes = 1024): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of ndjsonLines(chunks, { maxLineBytes })) lines.push(line);
  return lines;
}

describe('ndjsonLines', () => {
  it('splits on LF across chunk boundaries, drops CR and blank lines', async () => {
    expect(await collect(chunksOf('{"a":1}\n{"b"', ':2}\r\n\n', '{"c":3}\n'))).toEqual([
      '{"a":1}',
      '{"b":2}',
      '{"c":3}',
    ]);
  });

  it('joins a UTF-8 character cut between two chunks before decoding it', async () => {
    const bytes = Buffer.from('{"name":"Zoë ✓"}\n', 'utf8');
    const cut = bytes.indexOf(0xc3) + 1; // inside the two-byte ë
    expect(await collect(chunksOf(bytes.subarray(0, cut), bytes.subarray(cut)))).toEqual(['{"name":"Zoë ✓"}']);
  });

  it('yields a last line without its LF (the JSON parser decides whether it is whole)', async () => {
    expect(await collect(chunksOf('{"a":1}\n{"b":'))).toEqual(['{"a":1}', '{"b":']);
    expect(await collect(chunksOf('{"a":1}'))).toEqual(['{"a":1}']);
  });

  it('yields nothing for an empty body', async () => {
    expect(await collect(chunksOf())).toEqual([]);
    expect(await collect(chunksOf('\n\n'))).toEqual([]);
  });

  it('refuses a line longer than the cap, whether or not it is split across chunks', async () => {
    await expect(collect(chunksOf('x'.repeat(20), '\n'), 10)).rejects.toBeInstanceOf(NdjsonLineTooLong);
    await expect(collect(chunksOf('xxxxxx', 'xxxxxx\n'), 10)).rejects.toBeInstanceOf(NdjsonLineTooLong);
    expect(await collect(chunksOf('x'.repeat(10), '\n'), 10)).toEqual(['x'.repeat(10)]);
  });
});
