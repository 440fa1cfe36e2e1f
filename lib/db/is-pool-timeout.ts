// Whether an error means this instance waited DATABASE_POOL_TIMEOUT_MS for a database connection and got none
// (DECISIONS "Fleet operations"): every pooled connection was busy, or a new one was not accepted in time. The edge
// answers 503 with Retry-After so a saturated instance sheds load at once instead of queueing requests for seconds.
// node-postgres' pool raises these two messages (pg-pool: a queued checkout, a new connection); whichever driver
// layer wraps them, the words survive somewhere in the cause chain.
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

/** Counts one more request shed for want of a connection; the running total, for the log line. */
export function countPoolTimeout(): number {
  perProcess.__poolTimeouts = (perProcess.__poolTimeouts ?? 0) + 1;
  return perProcess.__poolTimeouts;
}
