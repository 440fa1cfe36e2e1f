// The live payer adapter: one real-time 270 out and the raw 271 (or TA1/999) back over CAQH CORE Connectivity
// (Phase II CORE 270 Connectivity Rule vC2.2.0, HTTP MIME multipart). It moves the envelope only: it never
// builds or reads X12, and never logs credentials or payload.
import { randomUUID } from 'node:crypto';
import type { Clock } from '@/lib/clock';
import { systemClock } from '@/lib/clock';
import { AppError, isAppError } from '@/lib/errors';
import { createEgress, type Egress } from '@/lib/outbound/egress';
import { MAX_INTERCHANGE_LENGTH } from '@/lib/x12/read-interchange';
import type { PayerTransport } from './payer-transport';

export type CoreTransportOptions = {
  url: string;
  username: string;
  password: string;
  senderId: string;
  receiverId: string;
  /** Whole exchange, request and response body included. Default 15000 (DECISIONS.md "Live transport"). */
  timeoutMs?: number;
  /** The outbound client (lib/outbound); the URL is the operator's, so no address rule applies. */
  egress?: Egress;
  clock?: Clock;
  /** CORE PayloadID: a UUID unique per envelope. */
  newPayloadId?: () => string;
};

const DEFAULT_TIMEOUT_MS = 15_000;
// A 271 for one subscriber is kilobytes; a payer answering megabytes is broken, and we will not hold it. The cap
// is the X12 reader's own limit plus room for the CORE multipart envelope around the payload.
const MAX_RESPONSE_BYTES = MAX_INTERCHANGE_LENGTH + 64 * 1024;
// An operator URL: the policy's mode and allow-list only matter for tenant URLs.
let defaultEgress: Egress | undefined;

// The same neutral sentence for every failure: the client must not learn payer text, status or credentials.
// The detail goes in `cause`, which carries only our own words, HTTP statuses and CORE error-code tokens.
const FAILURE_MESSAGE = 'The payer could not be reached; try the eligibility check again later';

// CORE rule vC2.2.0 envelope metadata: the fixed values of a real-time 270 request.
const REQUEST_PAYLOAD_TYPE = 'X12_270_Request_005010X279A1';
const PROCESSING_MODE = 'RealTime';
const CORE_RULE_VERSION = '2.2.0';

// A real-time 270 is answered by a 271, or rejected by a 999 or TA1 that the caller reads as a rejection.
// "00501X231A1" in the TA1 type is the rule's own spelling; the corrected one is accepted too, since
// endpoints that fixed it exist.
const ACCEPTED_RESPONSE_PAYLOAD_TYPES: ReadonlySet<string> = new Set([
  'X12_271_Response_005010X279A1',
  'X12_999_Response_005010X231A1',
  'X12_TA1_Response_00501X231A1',
  'X12_TA1_Response_005010X231A1',
]);

/** Live CAQH CORE transport. `send` throws AppError TRANSPORT_FAILED on any failure; it never retries. */
export function coreTransport(options: CoreTransportOptions): PayerTransport {
  const egress = options.egress ?? (defaultEgress ??= createEgress({ mode: 'production', allowedOrigins: [] }));
  const clock = options.clock ?? systemClock;
  const newPayloadId = options.newPayloadId ?? randomUUID;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // The brief for this project sends credentials as HTTP Basic (the rule's Username/Password form fields are
  // the alternative); Basic keeps them out of the envelope that a payer might echo or log.
  const authorization = `Basic ${Buffer.from(`${options.username}:${options.password}`, 'utf8').toString('base64')}`;

  return {
    mode: 'live',
    async send(x12Request, { correlationId }) {
      const { contentType, body } = encodeForm([
        ['PayloadType', REQUEST_PAYLOAD_TYPE],
        ['ProcessingMode', PROCESSING_MODE],
        ['PayloadID', newPayloadId()],
        ['TimeStamp', formatCoreTimeStamp(clock())],
        ['SenderID', options.senderId],
        ['ReceiverID', options.receiverId],
        ['CORERuleVersion', CORE_RULE_VERSION],
        ['Payload', x12Request],
      ]);

      // One timeout for the request and the body read (egress): a payer that sends headers and then stalls still
      // times out. A redirect is refused there too: it is not part of CORE and would replay credentials and PHI.
      try {
        const response = await egress.request({
          url: options.url,
          method: 'POST',
          headers: { authorization, 'x-correlation-id': correlationId, 'content-type': contentType },
          body,
          target: 'operator',
          purpose: 'payer',
          maxBodyBytes: MAX_RESPONSE_BYTES,
          timeoutMs,
        });
        if (response.status < 200 || response.status >= 300)
          throw new Error(`CORE endpoint answered HTTP ${response.status}`);
        const responseType = response.headers.get('content-type') ?? '';
        if (!/^multipart\/form-data\s*;/i.test(responseType)) {
          throw new Error('CORE response is not multipart/form-data');
        }
        return readCoreResponse(decodeForm(responseType, response.body));
      } catch (error) {
        throw transportFailed(error);
      }
    },
  };
}

/**
 * The envelope as multipart/form-data (RFC 7578) of text fields, in one buffer so the request leaves in one
 * write. Written out here rather than through `new Response(formData)`, whose web-stream encoding was a tenth of
 * a roster's CPU per exchange (bench/roster); the boundary is random, so no field value can contain it.
 */
export function encodeForm(fields: readonly (readonly [string, string])[]): {
  contentType: string;
  body: Uint8Array<ArrayBuffer>;
} {
  const boundary = `core-${randomUUID()}`;
  const parts = fields.map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: new TextEncoder().encode(`${parts.join('')}--${boundary}--\r\n`),
  };
}

/** CORE TimeStamp: UTC to the second, `YYYY-MM-DDTHH:MM:SSZ` (xsd:dateTime without fraction). */
export function formatCoreTimeStamp(now: Date): string {
  return `${now.toISOString().slice(0, 19)}Z`;
}

/**
 * The fields of a multipart/form-data body (RFC 7578) by name: a text field as its UTF-8 text, a file part (one
 * with a filename) as null. The first of a repeated name wins, as FormData.get answers. Read here rather than
 * through `new Response(body).formData()`, whose web-stream decoding cost more CPU per exchange than the rest of
 * the transport's own code (bench/roster); the CORE envelope is a handful of small text fields.
 * @throws Error when the body is not a complete multipart body under the content type's boundary.
 */
export function decodeForm(contentType: string, body: Buffer): Map<string, string | null> {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  if (!boundary) throw new Error('CORE response has no multipart boundary');
  // With a CRLF in front, every delimiter (the first too) reads CRLF--boundary; a preamble before it is ignored
  // (RFC 2046 section 5.1.1).
  const text = `\r\n${body.toString('utf8')}`;
  const delimiter = `\r\n--${boundary[1] ?? boundary[2]}`;
  const fields = new Map<string, string | null>();
  let at = text.indexOf(delimiter);
  while (at >= 0) {
    at += delimiter.length;
    if (text.startsWith('--', at)) return fields; // the close delimiter
    const next = text.indexOf(delimiter, at);
    const headersEnd = text.indexOf('\r\n\r\n', at);
    if (!text.startsWith('\r\n', at) || next < 0 || headersEnd < 0 || headersEnd + 2 > next) break;
    const disposition =
      /^content-disposition:[ \t]*form-data[ \t]*;(.*)$/im.exec(text.slice(at + 2, headersEnd))?.[1] ?? '';
    const name = /(?:^|;)[ \t]*name="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) break;
    const isFile = /(?:^|;)[ \t]*filename\*?=/i.test(disposition);
    if (!fields.has(name)) fields.set(name, isFile ? null : text.slice(headersEnd + 4, next));
    at = next;
  }
  throw new Error('CORE response is not a complete multipart body');
}

function readCoreResponse(fields: Map<string, string | null>): string {
  const errorCode = textField(fields, 'ErrorCode');
  // CORE rule vC2.2.0 envelope error codes: "Success" is the only one that means the envelope was processed.
  if (errorCode !== 'Success') {
    throw new Error(`CORE ErrorCode ${describeErrorCode(errorCode)}`);
  }
  const payloadType = textField(fields, 'PayloadType');
  if (payloadType === null || !ACCEPTED_RESPONSE_PAYLOAD_TYPES.has(payloadType)) {
    throw new Error('CORE response has an unexpected PayloadType');
  }
  const payload = fields.get('Payload');
  // An interchange always opens with ISA (TA1, 999 and 271 alike); anything else is not X12. The payload is
  // returned byte for byte: reading it is the caller's job.
  if (typeof payload !== 'string' || !payload.trimStart().startsWith('ISA')) {
    throw new Error('CORE response has no X12 Payload');
  }
  return payload;
}

// A CORE metadata token, trimmed. A file part, a missing field or an empty one counts as absent.
function textField(fields: Map<string, string | null>, name: string): string | null {
  const value = fields.get(name);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

// The code is a token of the rule (e.g. "UnAuthorized"); anything else is payer text and stays out of the cause.
function describeErrorCode(errorCode: string | null): string {
  if (errorCode === null) return 'missing';
  return /^[A-Za-z]{1,64}$/.test(errorCode) ? errorCode : 'unrecognised';
}

function transportFailed(cause: unknown): AppError {
  // The egress client already says it neutrally, with the detail in its cause.
  if (isAppError(cause) && cause.message === FAILURE_MESSAGE) return cause;
  return new AppError('TRANSPORT_FAILED', FAILURE_MESSAGE, { cause });
}
