// The staff upload's body: multipart/form-data (the file in field `file`, or any one file) or JSON `{ x12 }`. Two
// caps, both answered 413 with a sentence: the request body at 5 MiB, counted while streaming (multipart framing and
// JSON escaping cost room), and the interchange itself at the X12 reader's 1 MiB (MAX_INTERCHANGE_LENGTH). The
// reader keeps its cap: each 835 amount is bounded so that every sum over a 1 MiB interchange stays a safe integer
// (lib/money/cents.ts), and 1 MiB is thousands of claims, more than a clinic's payer sends in one interchange.
import { AppError } from '../errors';
import { MAX_INTERCHANGE_LENGTH } from '../x12/read-interchange';

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

const tooLarge = (message: string) => new AppError('PAYLOAD_TOO_LARGE', message);
const invalid = (message: string, path = 'body') =>
  new AppError('VALIDATION_FAILED', message, { issues: [{ path, message }] });

/** The upload's body cap, for the route's body reader: 413 with a sentence. */
export const UPLOAD_CAP = {
  maxBytes: MAX_UPLOAD_BYTES,
  tooLarge: () =>
    tooLarge(`The upload is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB; send one interchange of at most 1 MiB`),
};

function decode(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalid('The 835 is not valid UTF-8 text');
  }
}

/** The interchange text of the upload. @throws PAYLOAD_TOO_LARGE (413), VALIDATION_FAILED (400), UNPROCESSABLE (422). */
export async function readUpload({ contentType, bytes }: { contentType: string; bytes: Uint8Array }): Promise<string> {
  const type = contentType.toLowerCase();
  let x12: string;
  if (type.startsWith('multipart/form-data')) {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': contentType } }).formData();
    } catch {
      throw invalid('The multipart body cannot be read');
    }
    const named = form.get('file') ?? form.get('x12');
    const value = named ?? [...form.values()].find((v) => typeof v !== 'string') ?? null;
    if (value === null) throw invalid('Send the 835 in the form field "file"', 'body.file');
    x12 = typeof value === 'string' ? value : decode(new Uint8Array(await value.arrayBuffer()));
  } else if (/^application\/([a-z0-9.+-]+\+)?json\b/.test(type)) {
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
    throw invalid('Send the 835 as multipart/form-data (field "file") or as JSON { "x12": "..." }');
  }
  if (x12.length > MAX_INTERCHANGE_LENGTH) {
    throw tooLarge(`The 835 interchange is larger than 1 MiB (${x12.length} characters); ask the payer to split it`);
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
