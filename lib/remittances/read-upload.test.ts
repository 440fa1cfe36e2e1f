// The upload's 64 MiB cap, on the reader itself: a declared length over it is refused before the body is touched,
// and a streamed body is cancelled at the chunk that crosses the cap, so nothing past it is pulled.
import { describe, expect, it } from 'vitest';
import { readUpload } from './read-upload';

const CAP = 64 * 1024 * 1024;
const CHUNK = 256 * 1024;

/** A body of `total` bytes in CHUNK pieces that counts what the reader pulled. */
function countingBody(total: number) {
  const pulled = { bytes: 0, cancelled: false };
  const chunk = new TextEncoder().encode('ISA' + ' '.repeat(CHUNK - 3));
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const left = total - pulled.bytes;
        if (left <= 0) return controller.close();
        // A copy each time: a chunk read from a stream is the reader's, which may give its memory back.
        const part = left >= CHUNK ? chunk.slice() : chunk.slice(0, left);
        pulled.bytes += part.byteLength;
        controller.enqueue(part);
      },
      cancel() {
        pulled.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, pulled };
}

const tooLarge = {
  code: 'PAYLOAD_TOO_LARGE',
  message: 'The upload is larger than 64 MiB; ask the payer to split the interchange',
};

describe('readUpload cap', () => {
  it('refuses a declared length over 64 MiB without reading the body', async () => {
    const { body, pulled } = countingBody(CAP + 1);
    await expect(
      readUpload({ contentType: 'application/edi-x12', contentLength: String(CAP + 1), body }),
    ).rejects.toMatchObject(tooLarge);
    expect(pulled.bytes).toBe(0);
  });

  it.each(['application/edi-x12', 'application/json', 'multipart/form-data; boundary=x'])(
    'cancels a %s body of 64 MiB + 1 byte at the chunk that crosses the cap',
    async (contentType) => {
      const { body, pulled } = countingBody(CAP + 1 + 10 * CHUNK);
      await expect(readUpload({ contentType, contentLength: null, body })).rejects.toMatchObject(tooLarge);
      expect(pulled.cancelled).toBe(true);
      expect(pulled.bytes).toBe(CAP + CHUNK);
    },
  );

  it('reads a raw 835 split inside a multi-byte character', async () => {
    const bytes = new TextEncoder().encode('ISA*é');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, 5));
        controller.enqueue(bytes.subarray(5));
        controller.close();
      },
    });
    expect(await readUpload({ contentType: 'application/edi-x12', contentLength: null, body })).toBe('ISA*é');
  });
});
