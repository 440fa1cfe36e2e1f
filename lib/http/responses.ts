// Response helpers for handlers that answer something other than 200 JSON. A handler returns one of these
// (or a plain value, sent as 200 JSON).
import { AppError, type ErrorCode, type ErrorIssue } from '../errors';
import { centsToNumber } from '../money/cents-to-number';

export function json(body: unknown, init: ResponseInit = {}): Response {
  return jsonText(toJson(body), init);
}

/** A JSON response whose body the handler serialized itself (with toJson), piece by piece as its parts were ready. */
export function jsonText(text: string, init: ResponseInit = {}): Response {
  // A Headers object, not a plain record: several Set-Cookie lines must survive as separate headers.
  const headers = new Headers(init.headers);
  if (!headers.has('content-type')) headers.set('content-type', 'application/json; charset=utf-8');
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
  return new Response(text, { ...init, headers });
}

/** JSON text as every response writes it. */
export const toJson = (value: unknown): string => JSON.stringify(value, bigintAsNumber);

export const noContent = () => new Response(null, { status: 204 });
export const redirect = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, { status: 302, headers: { location, 'cache-control': 'no-store', ...headers } });

/** BigInt columns (cents sums) are sent as JSON numbers, exactly: one past 2^53 throws (centsToNumber), never rounds. */
function bigintAsNumber(_key: string, value: unknown) {
  return typeof value === 'bigint' ? centsToNumber(value) : value;
}

export type ErrorBody = { code: ErrorCode; message: string; correlationId: string; issues?: ErrorIssue[] };

export function errorBody(error: AppError, correlationId: string): ErrorBody {
  return {
    code: error.code,
    message: error.message,
    correlationId,
    ...(error.options.issues ? { issues: error.options.issues } : {}),
  };
}

export function appErrorResponse(error: AppError, correlationId: string): Response {
  const headers: Record<string, string> = { ...error.options.headers };
  if (error.options.retryAfterSeconds !== undefined)
    headers['retry-after'] = String(Math.max(1, Math.ceil(error.options.retryAfterSeconds)));
  return json(errorBody(error, correlationId), { status: error.status, headers });
}
