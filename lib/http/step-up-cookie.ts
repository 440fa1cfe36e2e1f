// Where the step-up claim travels: the httpOnly cookie svc-step-up (set by POST /api/auth/step-up, cleared at
// sign-out) or, for API callers, the x-svc-step-up header. The claim itself is lib/auth/step-up.ts's.
import { readCookie } from '../auth/session-token';
import { buildCookie, clearCookie } from './cookies';

const STEP_UP_COOKIE = 'svc-step-up';
const STEP_UP_HEADER = 'x-svc-step-up';

/** The claim the request carries, the header first; undefined when it carries none. */
export function readStepUpClaim(headers: Headers): string | undefined {
  return headers.get(STEP_UP_HEADER) ?? readCookie(headers, STEP_UP_COOKIE);
}

/** The Set-Cookie value carrying a fresh claim to every path, for as long as the claim lives. */
export function stepUpClaimCookie(token: string, ttlSeconds: number, appUrl: string): string {
  return buildCookie(STEP_UP_COOKIE, token, { maxAgeSeconds: ttlSeconds, path: '/', appUrl });
}

/** The Set-Cookie value that drops the claim (sign-out: a claim must not outlive its session in this browser). */
export function clearStepUpClaimCookie(appUrl: string): string {
  return clearCookie(STEP_UP_COOKIE, { path: '/', appUrl });
}
