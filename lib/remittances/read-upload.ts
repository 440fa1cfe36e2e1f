// The staff upload's body: the interchange itself as `application/edi-x12` (RFC 1767), multipart/form-data (the file
// in field `file`, or any one file) or JSON `{ x12 }`. One cap, 64 MiB (a large group's weekly Medicare 835), on
// the body and on the interchange, answered 413 with a sentence: a declared Content-Length over it is refused before
// a byte is read, and a body is counted while it streams and dropped the moment it passes the cap. The body is
// copied into one byte array as it arrives; the raw form's ASCII bytes are then read in place (x12-text.ts), other
// text is decoded; multipart and JSON are parsed from the bytes.
import { isAscii } from 'node:buffer';
import { AppError } from '../errors';
import { MAX_835_LENGTH } from '../x12/read-835';
import { AsciiBytes, type X12Text } from '../x12/x12-text';

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

/**
 * The whole body as bytes, copied into one array as it streams (sized up front by a declared Content-Length, else
 * doubled as it fills), so each chunk is dropped as it arrives rather than all held until the end and copied.
 */
async function readBytes(
  body: ReadableStream<Uint8Array> | null,
  contentLength: string | null,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(contentLength);
  let bytes = new Uint8Array(Number.isSafeInteger(declared) && declared > 0 ? declared : 64 * 1024);
  let length = 0;
  await readCapped(body, (chunk) => {
    if (length + chunk.byteLength > bytes.length) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, length + chunk.byteLength));
      grown.set(bytes.subarray(0, length));
      bytes = grown;
    }
    bytes.set(chunk, length);
    length += chunk.byteLength;
    release(chunk);
  });
  return bytes.subarray(0, length);
}

/**
 * Gives a copied chunk's memory back at once instead of at the next collection: a stream hands each chunk it reads
 * over to the reader (a byte stream transfers its buffer), and spent 64 KiB chunks otherwise pile up tens of
 * megabytes while a 50 MiB upload is read (bench era-post rssGrowthMb). Only a chunk that is its whole buffer.
 */
function release(chunk: Uint8Array): void {
  const { buffer } = chunk;
  if (
    buffer instanceof ArrayBuffer &&
    !buffer.resizable &&
    chunk.byteOffset === 0 &&
    chunk.byteLength === buffer.byteLength
  ) {
    buffer.transfer(0);
  }
}

/**
 * A raw 835 body as text. An ASCII body (every 835 we have seen) is read where its bytes lie (AsciiBytes): a 50 MiB
 * 835 is held once, not as bytes and then as a string as well (bench era-post rssGrowthMb). Anything else is
 * decoded as strict UTF-8.
 */
async function readRawText(upload: UploadBody): Promise<X12Text> {
  const bytes = await readBytes(upload.body, upload.contentLength);
  return isAscii(bytes) ? new AsciiBytes(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) : decode(bytes);
}

const RAW_TYPES = /^application\/(edi-x12|x12)\b/;

/** The interchange text of the upload. @throws PAYLOAD_TOO_LARGE (413), VALIDATION_FAILED (400), UNPROCESSABLE (422). */
export async function readUpload(upload: UploadBody): Promise<X12Text> {
  const { contentType, contentLength, body } = upload;
  const type = contentType.toLowerCase();
  // A declared length over the cap is refused before a byte is read.
  if (Number(contentLength) > MAX_UPLOAD_BYTES) throw UPLOAD_CAP.tooLarge();
  let x12: X12Text;
  if (RAW_TYPES.test(type)) {
    x12 = await readRawText(upload);
  } else if (type.startsWith('multipart/form-data')) {
    const bytes = await readBytes(body, contentLength);
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
    const bytes = await readBytes(body, contentLength);
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
  if (isBlank(x12)) throw new AppError('UNPROCESSABLE', 'The 835 is empty: there is nothing to post');
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
function findControlCharacter(x12: X12Text): string | null {
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

/** True when the text is whitespace only (what String#trim removes), read without copying it. */
function isBlank(text: X12Text): boolean {
  for (let i = 0; i < text.length; i++) if (text.charAt(i).trim() !== '') return false;
  return true;
}
