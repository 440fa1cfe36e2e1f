// The last step of the wrapper: any error becomes a response in the endpoint's error format. An AppError keeps
// its status, code and client-safe message; a database that cannot be reached is 503 DEPENDENCY_UNAVAILABLE, and so
// is a request that waited past DATABASE_POOL_TIMEOUT_MS for a connection (with Retry-After, counted in the log);
// anything else is a logged 500 INTERNAL_ERROR with a generic message. Details go to the log, never the body.
import type { Endpoint } from '../endpoint';
import { AppError, isAppError } from '../errors';
import { isDatabaseDown } from '../db/is-database-down';
import { isPoolTimeout, shedForPoolTimeout } from '../db/is-pool-timeout';
import { buildOperationOutcome } from '../fhir/operation-outcome';
import type { Logger } from '../log';
import { fhirResponse } from './fhir-response';
import { appErrorResponse, errorBody } from './responses';

type ErrorFormat = NonNullable<Endpoint['errorFormat']> | 'json';

export function errorResponse(
  error: unknown,
  correlationId: string,
  log: Logger,
  format: ErrorFormat = 'json',
): Response {
  return RENDERERS[format](asLoggedAppError(error, log), correlationId);
}

function asLoggedAppError(error: unknown, log: Logger): AppError {
  if (isAppError(error)) {
    const level = error.status >= 500 ? 'error' : 'info';
    log[level]({ code: error.code, status: error.status, cause: describeCause(error.cause) }, error.message);
    return error;
  }
  // Before isDatabaseDown: a connection that was not accepted in time also reads "Connection terminated".
  if (isPoolTimeout(error)) return shedForPoolTimeout(error, log);
  if (isDatabaseDown(error)) {
    log.error({ err: describeCause(error) }, 'database unavailable');
    return new AppError('DEPENDENCY_UNAVAILABLE', 'A dependency is unavailable; try again shortly');
  }
  log.error(
    { err: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) },
    'unhandled error',
  );
  return new AppError('INTERNAL_ERROR', 'Something went wrong; quote the correlation id to support');
}

const RENDERERS: Record<ErrorFormat, (error: AppError, correlationId: string) => Response> = {
  json: appErrorResponse,
  // FHIR clients expect an OperationOutcome: the same facts, status and headers (Retry-After, WWW-Authenticate).
  'operation-outcome': (error, correlationId) => {
    const { status, headers } = appErrorResponse(error, correlationId);
    headers.delete('content-type');
    return fhirResponse(buildOperationOutcome(errorBody(error, correlationId)), { status, headers });
  },
  // OAuth clients read `error` (RFC 6749 section 5.2); the correlation id stays in its header for support.
  oauth: (error, correlationId) => {
    const { status, headers } = appErrorResponse(error, correlationId);
    headers.set('cache-control', 'no-store');
    const code = status >= 500 ? 'server_error' : status === 401 ? 'invalid_client' : 'invalid_request';
    return Response.json({ error: code, error_description: error.message }, { status, headers });
  },
};

// The log is JSON: a cause is logged as a JSON value (an Error as { name, message, code?, cause? }, a plain
// detail object such as the egress client's as itself), never flattened to "[object Object]".
function describeCause(cause: unknown, depth = 0): unknown {
  if (cause === undefined || cause === null) return undefined;
  if (depth > 4) return '[deeper causes omitted]';
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    const inner = describeCause((cause as { cause?: unknown }).cause, depth + 1);
    return {
      name: cause.name,
      message: cause.message,
      ...(typeof code === 'string' && { code }),
      ...(inner !== undefined && { cause: inner }),
    };
  }
  if (typeof cause === 'object') {
    try {
      return JSON.parse(JSON.stringify(cause)) as unknown;
    } catch {
      return String(cause);
    }
  }
  return String(cause);
}
