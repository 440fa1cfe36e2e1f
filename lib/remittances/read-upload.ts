// The staff upload's body: the interchange itself as `application/edi-x12` (RFC 1767), multipart/form-data (the file
// in field `file`, or any one file) or JSON `{ x12 }`. One cap, 64 MiB (a large group's weekly Medicare 835), on
// the body and on the interchange, answered 413 with a sentence: a declared Content-Length over it is refused before
// a byte is read, and a body is counted while it streams and dropped the moment it passes the cap. The raw form is
// decoded chunk by chunk as it arrives, so a 64 MiB 835 is held as text once (not as bytes, then a copy, then
// text); multipart and JSON need the whole body before they can be parsed.
import { AppError } from '../errors';
import { MAX_835_LENGTH } from '../x12/read-835';

const MAX_UPLOAD_BYTES = MAX_835_LENGTH;
const CAP_MIB = MAX_UPLOAD_BYTES / 1024 / 1024;

const tooLarge = (message: string) => new AppError('PAYLOAD_TOO_LARGE', message);
const invalid = (message: string, path = 'body') =>
  new AppError('VALIDATION_FAILED', message, { issues: [{ path, message }] });

const UPLOAD_CAP = {
  maxBytes: MAX_UPLOAD_BYTES,
  tooLarge: () => tooLarge(`The upload is larger than ${CAP_MIB} MiB; ask the payer to split the interchange`),
};

const notUtf8 = () => invalid('The 835 is not valid UTF-8 text');

function decode(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw notUtf8();
  }
}

/** The upload as the route hands it over: its headers and the body stream, not yet read. */
export type UploadBody = { contentType: string; contentLength: string | null; body: ReadableStream<Uint8Array> | null };

/**
 * Reads the stream to its end, handing each chunk to `take`, and cancels it the moment it passes the cap: nothing
 * past the cap is read or kept. @throws PAYLOAD_TOO_LARGE (413).
 */
async function readCapped(body: ReadableStream<Uint8Array> | null, take: (chunk: Uint8Array) => void): Promise<void> {
  if (!body) return;
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    total += value.byteLength;
    if (total > MAX_UPLOAD_BYTES) {
      await reader.cancel();
      throw UPLOAD_CAP.tooLarge();
    }
    take(value);
  }
}

/** A raw 835 body as text, decoded while it streams (no byte copy of the whole body is ever held). */
async function readRawText(body: ReadableStream<Uint8Array> | null): Promise<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parts: string[] = [];
  try {
    await readCapped(body, (chunk) => parts.push(decoder.decode(chunk, { stream: true })));
    parts.push(decoder.decode());
  } catch (error) {
    if (error instanceof TypeError) throw notUtf8();
    throw error;
  }
  return parts.join('');
}

/** The whole body as bytes, for the forms that need it whole (multipart, JSON). */
async function readBytes(body: ReadableStream<Uint8Array> | null): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  await readCapped(body, (chunk) => {
    chunks.push(chunk);
    total += chunk.byteLength;
  });
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const RAW_TYPES = /^application\/(edi-x12|x12)\b/;

/** The interchange text of the upload. @throws PAYLOAD_TOO_LARGE (413), VALIDATION_FAILED (400), UNPROCESSABLE (422). */
export async function readUpload({ contentType, contentLength, body }: UploadBody): Promise<string> {
  const type = contentType.toLowerCase();
  // A declared length over the cap is refused before a byte is read.
  if (Number(contentLength) > MAX_UPLOAD_BYTES) throw UPLOAD_CAP.tooLarge();
  let x12: string;
  if (RAW_TYPES.test(type)) {
    x12 = await readRawText(body);
  } else if (type.startsWith('multipart/form-data')) {
    const bytes = await readBytes(body);
    let form: FormData;
    try {
      form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
    } catch {
      throw invalid('The multipart body cannot be read');
    }
    const named = form.get('file') ?? form.get('x12');
    const value = named ?? [...form.values()].find((v) => typeof v !== 'string') ?? null;
    if (value === null) throw invalid('Send the 835 in the form field "file"', 'body.file');
    x12 = typeof value === 'string' ? value : decode(new Uint8Array(await value.arrayBuffer()));
  } else if (/^application\/([a-z0-9.+-]+\+)?json\b/.test(type)) {
    const bytes = await readBytes(body);
    let parsed: unknown;
    try {
      parsed = JSON.parse(decode(bytes));
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw invalid('The request body is not valid JSON');
    }
    const value = (parsed as { x12?: unknown } | null)?.x12;
    if (typeof value !== 'string') throw invalid('x12 must be the 835 interchange as a string', 'body.x12');
    x12 = value;
  } else {
    throw invalid(
      'Send the 835 as application/edi-x12, as multipart/form-data (field "file") or as JSON { "x12": "..." }',
    );
  }
  if (x12.length > MAX_835_LENGTH) {
    throw tooLarge(
      `The 835 interchange is larger than ${CAP_MIB} MiB (${x12.length} characters); ask the payer to split it`,
    );
  }
  if (x12.trim() === '') throw new AppError('UNPROCESSABLE', 'The 835 is empty: there is nothing to post');
  const control = findControlCharacter(x12);
  if (control) throw invalid(control, 'body.x12');
  return x12;
}

// ISA04 (element), ISA11 (repetition), ISA16 (component) and the segment terminator after it, by offset from "ISA".
const ISA_DELIMITER_OFFSETS = [3, 82, 104, 105];

/**
 * Why the interchange holds a character no 835 may, or null. X12's character sets have no control characters, and
 * PostgreSQL text cannot store NUL or a lone surrogate (a 500 before this check): a C0 or C1 control, DEL or an
 * unpaired surrogate is refused, except line breaks and tab between segments and a control character the ISA
 * itself declares as a delimiter (X12.5 lets a sender choose one outside the data).
 */
function findControlCharacter(x12: string): string | null {
  const start = x12.indexOf('ISA');
  // NUL never: PostgreSQL text cannot hold it, whatever the ISA says.
  const declared = new Set(
    start < 0 ? [] : ISA_DELIMITER_OFFSETS.map((offset) => x12.charCodeAt(start + offset)).filter((c) => c > 0),
  );
  for (let i = 0; i < x12.length; i++) {
    const c = x12.charCodeAt(i);
    const isControl = c < 0x20 || (c >= 0x7f && c <= 0x9f);
    if (isControl && c !== 0x09 && c !== 0x0a && c !== 0x0d && !declared.has(c)) {
      return `The 835 holds a control character (U+${c.toString(16).toUpperCase().padStart(4, '0')}) at position ${i}`;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const pairs = c <= 0xdbff && (x12.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      if (!pairs) return `The 835 holds an unpaired surrogate at position ${i}: it is not valid Unicode text`;
      i++;
    }
  }
  return null;
}
