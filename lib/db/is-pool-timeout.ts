// Whether an error means this instance waited DATABASE_POOL_TIMEOUT_MS for a database connection and got none
// (DECISIONS "Fleet operations"): every pooled connection was busy, or a new one was not accepted in time. The edge
// answers 503 with Retry-After so a saturated instance sheds load at once instead of queueing requests for seconds.
// node-postgres' pool raises these two messages (pg-pool: a queued checkout, a new connection); whichever driver
// layer wraps them, the words survive somewhere in the cause chain.
import { AppError } from '../errors';
import type { Logger } from '../log';

const POOL_TIMEOUT = /timeout exceeded when trying to connect|Connection terminated due to connection timeout/i;

export function isPoolTimeout(error: unknown, depth = 0): boolean {
  if (error === undefined || error === null || depth > 4) return false;
  if (error instanceof Error) {
    return POOL_TIMEOUT.test(error.message) || isPoolTimeout((error as { cause?: unknown }).cause, depth + 1);
  }
  return typeof error === 'string' && POOL_TIMEOUT.test(error);
}

// One count per process (Next bundles each route apart, so a module variable would count per bundle).
const perProcess = globalThis as unknown as { __poolTimeouts?: number };

/** A shed request may come back at once: a pool frees within the length of a query, not of a minute. */
const RETRY_AFTER_SECONDS = 1;

/**
 * The answer to a request that got no connection in time: 503 DEPENDENCY_UNAVAILABLE with Retry-After. Logged at
 * warn with the process's running count (`poolTimeouts`), so an operator can alert on its rate.
 */
export function shedForPoolTimeout(error: unknown, log: Logger): AppError {
  perProcess.__poolTimeouts = (perProcess.__poolTimeouts ?? 0) + 1;
  log.warn(
    { poolTimeouts: perProcess.__poolTimeouts },
    'no database connection within the pool timeout: shed with 503',
  );
  return new AppError('DEPENDENCY_UNAVAILABLE', 'The service is busy; try again shortly', {
    cause: error,
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  });
}
