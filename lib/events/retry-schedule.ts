// When a failed delivery is tried again (DECISIONS "Events out"): after 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, then
// every 12 h, each ±10 % jitter (so endpoints that failed together do not all come back together), until 3 days
// after the first attempt; then never (the endpoint is disabled). Pure: the caller passes now and the random draw.
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DELAYS = [10 * SECOND, MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR];
const LAST_DELAY = 12 * HOUR;
export const RETRY_WINDOW_MS = 3 * 24 * HOUR;
const JITTER = 0.1;

/**
 * @param failedAttempts attempts made so far, all failed (1 after the first).
 * @param random a draw in [0, 1): 0.5 is no jitter.
 * @returns the next attempt's time, or null when it would fall past the 3-day window.
 */
export function nextAttemptAt(failedAttempts: number, firstAttemptAt: Date, now: Date, random: number): Date | null {
  const base = DELAYS[failedAttempts - 1] ?? LAST_DELAY;
  const delay = base * (1 + JITTER * (2 * random - 1));
  const next = new Date(now.getTime() + delay);
  return next.getTime() - firstAttemptAt.getTime() > RETRY_WINDOW_MS ? null : next;
}
