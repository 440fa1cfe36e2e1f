// GET/POST /api/auth/* through next-auth (lib/auth/next-auth.ts), with its failures in our error shape:
// { code, message, correlationId, url } whatever the status (url kept for next-auth's client): 400 for an
// oversized form, 401, 423 ACCOUNT_LOCKED and 429 RATE_LIMITED with Retry-After, 503 when AUTH_SECRET is unset.
// A request without a CSRF token is a failure, never next-auth's 200. Sign-out also clears the step-up cookie.
import NextAuth from 'next-auth';
import { requireAuthSecret } from '../config';
import { getDeps } from '../deps';
import { AppError, ERROR_STATUS, isAppError, type ErrorCode } from '../errors';
import { authOptions } from '../auth/next-auth';
import { SIGN_IN_INPUT_LIMITS } from '../auth/rate-limit-policy';
import { isSignInField, isSignInNotice, signInFieldIssue, SIGN_IN_NOTICES } from '../auth/sign-in';
import { CORRELATION_HEADER, readCorrelationId } from './correlation';
import { errorBody, json } from './responses';
import { clearStepUpClaimCookie } from './step-up-cookie';

type Ctx = { params: Promise<{ nextauth: string[] }> };

export async function handleNextAuth(request: Request, context: Ctx): Promise<Response> {
  const correlationId = readCorrelationId(request.headers);
  const deps = await getDeps();
  const { config } = deps;
  const { nextauth } = await context.params;
  const action = request.method === 'POST' ? nextauth.join('/') : '';
  let response: Response;
  try {
    // next-auth builds its own URLs from NEXTAUTH_URL; derive it from APP_URL so there is one setting.
    process.env.NEXTAUTH_URL ??= config.appUrl;
    const handler = NextAuth(authOptions(deps, requireAuthSecret(config), correlationId));
    if (request.method === 'POST') assertSmallForm(request.headers);
    response = await (handler as unknown as (r: Request, c: Ctx) => Promise<Response>)(request, context);
    if (action === 'callback/credentials') response = await reshapeSignInFailure(response, correlationId);
    // A step-up claim outliving the session it was granted in would serve the next person at this browser.
    if (action === 'signout') response.headers.append('set-cookie', clearStepUpClaimCookie(config.appUrl));
  } catch (error) {
    if (!isAppError(error)) deps.log.error({ correlationId, err: String(error) }, 'next-auth failure');
    const appError = isAppError(error) ? error : new AppError('INTERNAL_ERROR', 'Something went wrong');
    response = signInFailure(
      appError,
      correlationId,
      action === 'callback/credentials' ? errorUrl(config.appUrl, appError.code) : undefined,
    );
  }
  response.headers.set(CORRELATION_HEADER, correlationId);
  return response;
}

/**
 * next-auth reads the whole body before anything of ours runs, so the size is bounded by what the request declares:
 * Node's parser never delivers more than Content-Length, and a chunked body (no declared length) is refused.
 */
function assertSmallForm(headers: Headers) {
  const declared = Number(headers.get('content-length') ?? 0);
  if (headers.has('transfer-encoding') || !(declared <= SIGN_IN_INPUT_LIMITS.bodyBytes)) {
    throw new AppError('VALIDATION_FAILED', 'The sign-in form is too large', {
      issues: [{ path: 'body', message: `At most ${SIGN_IN_INPUT_LIMITS.bodyBytes} bytes, with Content-Length` }],
    });
  }
}

/** The URL next-auth's client reads a sign-in failure from (its own shape: `<base>/api/auth/error?error=CODE`). */
function errorUrl(appUrl: string, code: ErrorCode): string {
  return `${appUrl}/api/auth/error?${new URLSearchParams({ error: code })}`;
}

/** Our error body, plus next-auth's `url` on sign-in (every status: DECISIONS), and Retry-After when known. */
function signInFailure(
  error: AppError,
  correlationId: string,
  url: string | undefined,
  headers = new Headers(),
): Response {
  if (error.options.retryAfterSeconds !== undefined)
    headers.set('retry-after', String(Math.max(1, Math.ceil(error.options.retryAfterSeconds))));
  return json({ ...errorBody(error, correlationId), ...(url ? { url } : {}) }, { status: error.status, headers });
}

const SIGN_IN_MESSAGES: Partial<Record<ErrorCode, string>> = {
  UNAUTHENTICATED: 'The sign-in form expired; reload the page and try again',
  INVALID_CREDENTIALS: 'The e-mail, password or code is not correct',
  MFA_REQUIRED: 'Enter the code from your authenticator app or a backup code',
  ACCOUNT_LOCKED: 'Too many failed sign-in attempts; the account is locked for a while',
  RATE_LIMITED: 'Too many failed sign-in attempts from this network; try again later',
  VALIDATION_FAILED: 'The sign-in form is not valid',
  DEPENDENCY_UNAVAILABLE: 'Sign-in is not available',
};

/** next-auth answers a failed sign-in with a redirect URL (JSON `{url}` or Location); ours adds code and status. */
async function reshapeSignInFailure(response: Response, correlationId: string): Promise<Response> {
  const isJson = response.headers.get('content-type')?.includes('application/json');
  const url = isJson ? ((await response.clone().json()) as { url?: string }).url : response.headers.get('location');
  if (!url) return response;
  const parsed = new URL(url, 'http://x');
  const csrfMissing = parsed.searchParams.get('csrf') === 'true';
  const errorParam = parsed.searchParams.get('error');
  if (!csrfMissing && !errorParam) return response; // success: the session cookie is set
  const [codeText, retryAfter, notice, fieldList] = (errorParam ?? '').split(':');
  const code: ErrorCode = csrfMissing
    ? 'UNAUTHENTICATED'
    : codeText && codeText in ERROR_STATUS
      ? (codeText as ErrorCode)
      : 'INVALID_CREDENTIALS';
  // A notice (one attempt left, a reused code, a deactivated account) says more than the code's own sentence.
  const message = notice && isSignInNotice(notice) ? SIGN_IN_NOTICES[notice] : SIGN_IN_MESSAGES[code];
  // Only names of the form's own fields come back as issues; anything else in the URL is ignored.
  const fields = [...new Set((fieldList ?? '').split(',').filter(isSignInField))];
  const error = new AppError(code, message ?? 'Sign-in failed', {
    retryAfterSeconds: retryAfter ? Number(retryAfter) : undefined,
    ...(fields.length > 0 && { issues: fields.map(signInFieldIssue) }),
  });
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append('set-cookie', cookie);
  return signInFailure(error, correlationId, url, headers);
}
