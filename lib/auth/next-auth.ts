// next-auth (v4, credentials provider, JWT sessions) wired to our sign-in rules, plus the wrapper that gives
// its failures our error shape: { code, message, correlationId, url } whatever the status (url kept for
// next-auth's client): 400 for an oversized form, 401, 423 ACCOUNT_LOCKED and 429 RATE_LIMITED with Retry-After,
// 503 when AUTH_SECRET is unset. A request without a CSRF token is a failure, never next-auth's 200. Sign-out
// revokes the session on the server and clears the step-up cookie too.
import { randomUUID } from 'node:crypto';
import NextAuth, { type AuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { getConfig, requireAuthSecret } from '../config';
import { getDeps } from '../deps';
import { getLogger } from '../log';
import { AppError, ERROR_STATUS, isAppError, type ErrorCode } from '../errors';
import { CORRELATION_HEADER, readCorrelationId } from '../http/correlation';
import { errorBody, json } from '../http/responses';
import { signIn, type SignedInUser } from './sign-in';
import { SESSION_MAX_AGE_SECONDS, sessionCookieName, type SessionClaims } from './session-token';
import { readClientAddress } from './client-address';
import { safeRedirectPath } from './safe-redirect-path';
import { isSessionRevoked, revokeSession } from './revoke-session';
import { clearCookie } from './auth-cookies';
import { STEP_UP_COOKIE } from './step-up';
import { SIGN_IN_INPUT_LIMITS } from './rate-limit-policy';

function authOptions(secret: string, appUrl: string): AuthOptions {
  const secure = appUrl.startsWith('https://');
  // __Host- (Secure, Path=/, no Domain) behind https for every cookie next-auth sets; its default for these two
  // is __Secure-, which a sibling subdomain could still plant.
  const hostCookie = (name: string) => ({ name, options: { httpOnly: true, sameSite: 'lax' as const, path: '/', secure } });
  return {
    secret,
    useSecureCookies: secure,
    cookies: {
      sessionToken: hostCookie(sessionCookieName(appUrl)),
      callbackUrl: hostCookie(secure ? '__Host-next-auth.callback-url' : 'next-auth.callback-url'),
    },
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
    jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: '/login', error: '/login' },
    providers: [
      CredentialsProvider({
        name: 'Email and password',
        credentials: {
          email: { label: 'E-mail', type: 'email' },
          password: { label: 'Password', type: 'password' },
          mfaCode: { label: 'Authentication code', type: 'text' },
        },
        async authorize(credentials, req) {
          const deps = await getDeps();
          const headers = new Headers(req.headers as Record<string, string>);
          const correlationId = readCorrelationId(headers);
          try {
            const user = await signIn(
              { db: deps.db, now: deps.clock(), sealKey: deps.config.sealKey },
              {
                email: credentials?.email ?? '', password: credentials?.password ?? '', mfaCode: credentials?.mfaCode,
                clientAddress: readClientAddress(headers), correlationId,
              },
            );
            return { ...user, name: user.email };
          } catch (error) {
            // next-auth carries only a message to its error URL: encode our code (and Retry-After) there.
            if (isAppError(error)) throw new Error(error.options.retryAfterSeconds ? `${error.code}:${error.options.retryAfterSeconds}` : error.code);
            throw error;
          }
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (!user) {
          // A session read (GET /api/auth/session) of a signed-out session: throwing makes next-auth answer as
          // signed out and clear the cookie, instead of showing the user and re-issuing the token.
          const sid = (token as Partial<SessionClaims>).sid;
          if (typeof sid !== 'string' || (await isSessionRevoked((await getDeps()).db, sid))) throw new Error('session ended');
          return token;
        }
        const u = user as unknown as SignedInUser;
        const claims: SessionClaims = {
          sub: u.id, email: u.email, orgId: u.orgId, clinicId: u.clinicId, clinicName: u.clinicName,
          scopes: u.scopes, sessionVersion: u.sessionVersion, authenticatedAt: Math.floor(Date.now() / 1000), sid: randomUUID(),
        };
        return { ...token, ...claims };
      },
      // The callbackUrl a sign-in or sign-out answers with: same-origin paths only.
      async redirect({ url, baseUrl }) {
        return `${baseUrl}${safeRedirectPath(url, baseUrl)}`;
      },
      async session({ session, token }) {
        const t = token as unknown as SessionClaims;
        // What the staff app shows: never a secret, hash or token.
        return {
          ...session,
          user: { id: t.sub, email: t.email, orgId: t.orgId, clinicId: t.clinicId, clinicName: t.clinicName, scopes: t.scopes },
        };
      },
    },
    events: {
      // Runs once next-auth has accepted the sign-out (CSRF token checked) with the decoded session token.
      async signOut({ token }) {
        const { sid, sub, authenticatedAt } = (token ?? {}) as Partial<SessionClaims>;
        if (typeof sid !== 'string' || typeof sub !== 'string' || typeof authenticatedAt !== 'number') return;
        const deps = await getDeps();
        try {
          await revokeSession(deps.db, { sid, sub, authenticatedAt }, deps.clock());
        } catch (error) {
          // next-auth would swallow it and clear the cookie anyway; the log must say the token still works.
          getLogger().error({ userId: sub, err: String(error) }, 'sign-out could not revoke the session');
          throw error;
        }
      },
    },
  };
}

type Ctx = { params: Promise<{ nextauth: string[] }> };

export async function handleNextAuth(request: Request, context: Ctx): Promise<Response> {
  const correlationId = readCorrelationId(request.headers);
  const { nextauth } = await context.params;
  const action = request.method === 'POST' ? nextauth.join('/') : '';
  let response: Response;
  try {
    const config = getConfig();
    // next-auth builds its own URLs from NEXTAUTH_URL; derive it from APP_URL so there is one setting.
    process.env.NEXTAUTH_URL ??= config.appUrl;
    const handler = NextAuth(authOptions(requireAuthSecret(), config.appUrl));
    if (request.method === 'POST') assertSmallForm(request.headers);
    response = await (handler as unknown as (r: Request, c: Ctx) => Promise<Response>)(request, context);
    if (action === 'callback/credentials') response = await reshapeSignInFailure(response, correlationId);
    // A step-up claim outliving the session it was granted in would serve the next person at this browser.
    if (action === 'signout') response.headers.append('set-cookie', clearCookie(STEP_UP_COOKIE, { path: '/', appUrl: config.appUrl }));
  } catch (error) {
    if (!isAppError(error)) getLogger().error({ correlationId, err: String(error) }, 'next-auth failure');
    const appError = isAppError(error) ? error : new AppError('INTERNAL_ERROR', 'Something went wrong');
    response = signInFailure(appError, correlationId, action === 'callback/credentials' ? errorUrl(request, appError.code) : undefined);
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
function errorUrl(request: Request, code: ErrorCode): string {
  let base: string;
  try {
    base = getConfig().appUrl;
  } catch {
    base = new URL(request.url).origin;
  }
  return `${base}/api/auth/error?${new URLSearchParams({ error: code })}`;
}

/** Our error body, plus next-auth's `url` on sign-in (every status: DECISIONS), and Retry-After when known. */
function signInFailure(error: AppError, correlationId: string, url: string | undefined, headers = new Headers()): Response {
  if (error.options.retryAfterSeconds !== undefined) headers.set('retry-after', String(Math.max(1, Math.ceil(error.options.retryAfterSeconds))));
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
  const [codeText, retryAfter] = (errorParam ?? '').split(':');
  const code: ErrorCode =
    csrfMissing ? 'UNAUTHENTICATED' : codeText && codeText in ERROR_STATUS ? (codeText as ErrorCode) : 'INVALID_CREDENTIALS';
  const error = new AppError(code, SIGN_IN_MESSAGES[code] ?? 'Sign-in failed', {
    retryAfterSeconds: retryAfter ? Number(retryAfter) : undefined,
  });
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append('set-cookie', cookie);
  return signInFailure(error, correlationId, url, headers);
}
