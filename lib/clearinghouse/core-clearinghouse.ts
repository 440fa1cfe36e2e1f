// The live clearinghouse adapter over CAQH CORE Connectivity (vC2.2.0, HTTP MIME multipart), configured by
// CLEARINGHOUSE_* (DECISIONS "Claims out"). Claims go in batch mode: the 837P is submitted (BatchSubmission,
// answered by a BatchReceiptConfirmation), then its 999 is retrieved (BatchResultsAckRetrieval) and then its
// 277CA (BatchResultsRetrieval; "not ready" is not a failure: the claim is transmitted once the 999 accepts it,
// and a status refresh asks again). The submission's PayloadID is the caller's, recorded before the send, so the
// answers of a send interrupted after its receipt can be retrieved later without sending the claim again. Claim
// status is real time: a 276 out, the 277 back. Remittances are batch results: each retrieval (X12_835_Request)
// delivers the next waiting 835 interchange, or NoBatchResultsFile, and our 999 for it
// (X12_999_SubmissionRequest) tells the clearinghouse it was taken. It moves envelopes only:
// it never builds or reads X12, and never logs credentials or payload.
import { randomUUID } from 'node:crypto';
import type { Clock } from '@/lib/clock';
import { systemClock } from '@/lib/clock';
import { AppError, isAppError } from '@/lib/errors';
import { decodeForm, encodeForm, formatCoreTimeStamp } from '@/lib/eligibility/core-transport';
import { egressError, neverReachedServer, type Egress } from '@/lib/outbound/egress';
import { MAX_INTERCHANGE_LENGTH } from '@/lib/x12/read-interchange';
import type { ClearinghouseParties, ClearinghouseTransport } from './clearinghouse-transport';

export type CoreClearinghouseOptions = {
  url: string;
  username: string;
  password: string;
  parties: ClearinghouseParties;
  egress: Egress;
  /** Each exchange, request and response body included. Default 15000, as for eligibility. */
  timeoutMs?: number;
  clock?: Clock;
  /** CORE PayloadID: a UUID unique per envelope. */
  newPayloadId?: () => string;
};

const DEFAULT_TIMEOUT_MS = 15_000;
const MAX_RESPONSE_BYTES = MAX_INTERCHANGE_LENGTH + 64 * 1024;
const CORE_RULE_VERSION = '2.2.0';
const FAILURE_MESSAGE = 'The clearinghouse could not be reached; try again later';

// CORE payload types (Connectivity Rule vC2.2.0, its table of payload types for the 837, 999, 277CA and 276/277).
export const CORE_PAYLOAD_TYPES = {
  claimSubmission: 'X12_837_Request_005010X222A1',
  batchReceipt: 'X12_BatchReceiptConfirmation',
  ackRetrieval: 'X12_999_RetrievalRequest_005010X231A1',
  ack999: 'X12_999_Response_005010X231A1',
  ack277caRetrieval: 'X12_005010_Request_Batch_Results_277CA',
  ack277ca: 'X12_277CA_Response_005010X214',
  statusRequest: 'X12_276_Request_005010X212',
  statusResponse: 'X12_277_Response_005010X212',
  remittanceRetrieval: 'X12_835_Request_005010X221A1',
  remittance: 'X12_835_Response_005010X221A1',
  ackSubmission: 'X12_999_SubmissionRequest_005010X231A1',
} as const;

/** CORE ErrorCode for a batch results retrieval with nothing waiting: an answer, not a failure. */
const NOTHING_WAITING = 'NoBatchResultsFile';

type Envelope = Map<string, string | null>;

/** Live CAQH CORE clearinghouse. Every method throws AppError TRANSPORT_FAILED on failure and never retries. */
export function coreClearinghouse(options: CoreClearinghouseOptions): ClearinghouseTransport {
  const clock = options.clock ?? systemClock;
  const newPayloadId = options.newPayloadId ?? randomUUID;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const authorization = `Basic ${Buffer.from(`${options.username}:${options.password}`, 'utf8').toString('base64')}`;

  async function exchange(
    fields: { payloadType: string; mode: 'Batch' | 'RealTime'; payloadId?: string; payload: string },
    correlationId: string,
  ): Promise<Envelope> {
    const { contentType, body } = encodeForm([
      ['PayloadType', fields.payloadType],
      ['ProcessingMode', fields.mode],
      ['PayloadID', fields.payloadId ?? newPayloadId()],
      ['TimeStamp', formatCoreTimeStamp(clock())],
      ['SenderID', options.parties.senderId],
      ['ReceiverID', options.parties.receiverId],
      ['CORERuleVersion', CORE_RULE_VERSION],
      ['Payload', fields.payload],
    ]);
    const response = await options.egress.request({
      url: options.url,
      method: 'POST',
      headers: { authorization, 'x-correlation-id': correlationId, 'content-type': contentType },
      body,
      target: 'operator',
      purpose: 'clearinghouse',
      maxBodyBytes: MAX_RESPONSE_BYTES,
      timeoutMs,
    });
    if (response.status < 200 || response.status >= 300)
      throw egressError('clearinghouse', { reason: 'status', status: response.status });
    const responseType = response.headers.get('content-type') ?? '';
    if (!/^multipart\/form-data\s*;/i.test(responseType)) throw new Error('CORE response is not multipart/form-data');
    return decodeForm(responseType, response.body);
  }

  /** The 999 (and the 277CA when ready) of a submission, by its PayloadID; null when there is no 999 for it. */
  async function retrieveByPayloadId(submissionId: string, correlationId: string) {
    const retrieved = await exchange(
      { payloadType: CORE_PAYLOAD_TYPES.ackRetrieval, mode: 'Batch', payload: submissionId },
      correlationId,
    );
    // Any ErrorCode other than Success (NoBatchResultsFile, ...) means there is nothing to retrieve.
    if (textField(retrieved, 'ErrorCode') !== 'Success') return null;
    const ack999 = x12Payload(retrieved, CORE_PAYLOAD_TYPES.ack999);
    if (ack999 === null) throw new Error('CORE 999 retrieval returned no 999');
    return { ack999, ack277ca: await retrieve277ca(submissionId, correlationId) };
  }

  /** The 277CA of a submission, or null: none yet is an answer, and so is a failed ask (a refresh asks again). */
  async function retrieve277ca(submissionId: string, correlationId: string): Promise<string | null> {
    try {
      const results = await exchange(
        { payloadType: CORE_PAYLOAD_TYPES.ack277caRetrieval, mode: 'Batch', payload: submissionId },
        correlationId,
      );
      return textField(results, 'ErrorCode') === 'Success' ? x12Payload(results, CORE_PAYLOAD_TYPES.ack277ca) : null;
    } catch {
      return null;
    }
  }

  return {
    mode: 'live',
    parties: options.parties,
    async submitClaim(x12, { correlationId, submissionId }) {
      let receipt: Envelope;
      try {
        receipt = await exchange(
          { payloadType: CORE_PAYLOAD_TYPES.claimSubmission, mode: 'Batch', payloadId: submissionId, payload: x12 },
          correlationId,
        );
        requireSuccess(receipt);
        // Some clearinghouses answer the submission with the 999 itself; otherwise it is retrieved.
        const inline = x12Payload(receipt, CORE_PAYLOAD_TYPES.ack999);
        if (inline !== null) return { ack999: inline, ack277ca: await retrieve277ca(submissionId, correlationId) };
        if (textField(receipt, 'PayloadType') !== CORE_PAYLOAD_TYPES.batchReceipt)
          throw new Error('CORE response has an unexpected PayloadType');
      } catch (error) {
        if (wasRefused(error)) throw transportFailed(error);
        // It may have reached the clearinghouse: no receipt, but never "not sent" (the caller will not send again).
        return null;
      }
      // Receipt confirmed: the claim was sent. From here a failure is "no answer yet", never "not sent", so the
      // caller keeps the claim `sending` and asks again later instead of sending it twice.
      try {
        return (await retrieveByPayloadId(submissionId, correlationId)) ?? { ack999: null, ack277ca: null };
      } catch {
        return { ack999: null, ack277ca: null };
      }
    },
    async retrieveAcknowledgments({ submissionId }, { correlationId }) {
      try {
        return await retrieveByPayloadId(submissionId, correlationId);
      } catch (error) {
        throw transportFailed(error);
      }
    },
    async requestStatus(x12, { correlationId }) {
      try {
        const answer = await exchange(
          { payloadType: CORE_PAYLOAD_TYPES.statusRequest, mode: 'RealTime', payload: x12 },
          correlationId,
        );
        requireSuccess(answer);
        const payload = x12Payload(answer, CORE_PAYLOAD_TYPES.statusResponse);
        if (payload === null) throw new Error('CORE response has no 277 Payload');
        return payload;
      } catch (error) {
        throw transportFailed(error);
      }
    },
    async retrieveRemittance({ correlationId }) {
      try {
        // A retrieval asks for what waits for our SenderID; the Payload carries no criteria.
        const answer = await exchange(
          { payloadType: CORE_PAYLOAD_TYPES.remittanceRetrieval, mode: 'Batch', payload: '' },
          correlationId,
        );
        if (textField(answer, 'ErrorCode') === NOTHING_WAITING) return null;
        requireSuccess(answer);
        const x12 = x12Payload(answer, CORE_PAYLOAD_TYPES.remittance);
        if (x12 === null) throw new Error('CORE response has an unexpected PayloadType');
        const fileId = textField(answer, 'PayloadID');
        if (fileId === null) throw new Error('CORE response has no PayloadID');
        return { fileId, x12 };
      } catch (error) {
        throw transportFailed(error);
      }
    },
    async acknowledgeRemittance(ack999, { correlationId }) {
      try {
        const receipt = await exchange(
          { payloadType: CORE_PAYLOAD_TYPES.ackSubmission, mode: 'Batch', payload: ack999 },
          correlationId,
        );
        requireSuccess(receipt);
      } catch (error) {
        throw transportFailed(error);
      }
    },
  };
}

/** A CORE envelope whose ErrorCode is not Success: the clearinghouse answered that it did not process it. */
class CoreErrorCode extends Error {}

/**
 * Whether a failed submission certainly left the clearinghouse without the 837P: refused before sending, answered
 * 4xx (the request itself refused: credentials, form) or with a CORE error envelope. A 5xx, a timeout after the
 * request left, or an answer we cannot read may come after the clearinghouse took it.
 */
function wasRefused(error: unknown): boolean {
  if (neverReachedServer(error) || error instanceof CoreErrorCode) return true;
  const cause = isAppError(error)
    ? (error.options.cause as { reason?: string; status?: number } | undefined)
    : undefined;
  return cause?.reason === 'status' && cause.status !== undefined && cause.status >= 400 && cause.status < 500;
}

// CORE rule vC2.2.0 envelope error codes: "Success" is the only one that means the envelope was processed.
function requireSuccess(envelope: Envelope): void {
  const errorCode = textField(envelope, 'ErrorCode');
  if (errorCode !== 'Success') {
    // A token of the rule (e.g. "UnAuthorized") may go to the log; anything else is clearinghouse text.
    throw new CoreErrorCode(
      `CORE ErrorCode ${errorCode === null ? 'missing' : /^[A-Za-z]{1,64}$/.test(errorCode) ? errorCode : 'unrecognised'}`,
    );
  }
}

/** The X12 payload when the envelope carries `payloadType`; null when it carries another type. */
function x12Payload(envelope: Envelope, payloadType: string): string | null {
  if (textField(envelope, 'PayloadType') !== payloadType) return null;
  const payload = envelope.get('Payload');
  // An interchange always opens with ISA; the payload is returned byte for byte.
  if (typeof payload !== 'string' || !payload.trimStart().startsWith('ISA'))
    throw new Error('CORE response has no X12 Payload');
  return payload;
}

function textField(envelope: Envelope, name: string): string | null {
  const value = envelope.get(name);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function transportFailed(cause: unknown): AppError {
  // The egress client already says it neutrally, with the detail in its cause.
  if (isAppError(cause) && cause.message === FAILURE_MESSAGE) return cause;
  return new AppError('TRANSPORT_FAILED', FAILURE_MESSAGE, { cause });
}
