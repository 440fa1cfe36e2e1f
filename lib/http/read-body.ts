// Reading a request body: at most 1 MiB, counted while streaming, and (for JSON endpoints) a JSON media type,
// valid UTF-8 and valid JSON, each refused with VALIDATION_FAILED on the `body` path.
import { AppError } from '../errors';

/** No endpoint takes more; a larger body is refused before it is buffered whole (or its signature computed). */
const MAX_BODY_BYTES = 1024 * 1024;

const bodyTooLarge = () =>
  new AppError('VALIDATION_FAILED', 'The request body is too large', {
    issues: [{ path: 'body', message: `At most ${MAX_BODY_BYTES} bytes` }],
  });

/** A body cap other than the default 1 MiB (an upload), and the error that refuses a larger body. */
export type BodyCap = { maxBytes: number; tooLarge: () => AppError };

const DEFAULT_CAP: BodyCap = { maxBytes: MAX_BODY_BYTES, tooLarge: bodyTooLarge };

/** The exact bytes of the body (a signed webhook's signature covers them). */
export async function readBodyBytes(request: Request, cap: BodyCap = DEFAULT_CAP): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(request.headers.get('content-length')) > cap.maxBytes) throw cap.tooLarge();
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    // Counted while streaming: Content-Length may be absent (chunked) or lie.
    if (total > cap.maxBytes) {
      await reader.cancel();
      throw cap.tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** The body as a JSON value. `alreadyRead`: the bytes a signature check read, since a body can be read only once. */
export async function readJsonBody(request: Request, alreadyRead?: Uint8Array): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/([a-z0-9.+-]+\+)?json\b/i.test(type)) {
    throw new AppError('VALIDATION_FAILED', 'The request body must be JSON (Content-Type: application/json)', {
      issues: [{ path: 'body', message: 'Expected Content-Type application/json' }],
    });
  }
  const bytes = alreadyRead ?? (await readBodyBytes(request));
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (cause) {
    throw new AppError('VALIDATION_FAILED', 'The request body is not valid UTF-8', {
      cause,
      issues: [{ path: 'body', message: 'Invalid UTF-8' }],
    });
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new AppError('VALIDATION_FAILED', 'The request body is not valid JSON', {
      cause,
      issues: [{ path: 'body', message: 'Invalid JSON' }],
    });
  }
}
