// next-auth (v4, credentials provider, JWT sessions) wired to our sign-in rules, plus the wrapper that gives
// its failures our error shape: 401 { code, message, correlationId, url } (url kept for next-auth's client),
// 423 ACCOUNT_LOCKED with Retry-After, 503 when AUTH_SECRET is unset. A request without a CSRF token is a
// failure, never next-auth's 200.
import NextAuth, { type AuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { getConfig, requireAuthSecret } from '../config';
import { getDeps } from '../deps';
import { getLogger } from '../log';
import { AppError, ERROR_STATUS, isAppError, type ErrorCode } from '../http/errors';
import { CORRELATION_HEADER, readCorrelationId } from '../http/correlation';
import { appErrorResponse, errorBody, json } from '../http/responses';
import { signIn, type SignedInUser } from './sign-in';
import { SESSION_MAX_AGE_SECONDS, type SessionClaims } from './session-token';

function authOptions(secret: string, appUrl: string): AuthOptions {
  return {
    secret,
    useSecureCookies: appUrl.startsWith('https://'),
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
          const correlationId = readCorrelationId(new Headers(req.headers as Record<string, string>));
          try {
            const user = await signIn(
              { db: deps.db, now: deps.clock(), sealKey: deps.config.sealKey },
              { email: credentials?.email ?? '', password: credentials?.password ?? '', mfaCode: credentials?.mfaCode, correlationId },
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
        if (!user) return token;
        const u = user as unknown as SignedInUser;
        const claims: SessionClaims = {
          sub: u.id, email: u.email, orgId: u.orgId, clinicId: u.clinicId, clinicName: u.clinicName,
          scopes: u.scopes, sessionVersion: u.sessionVersion, authenticatedAt: Math.floor(Date.now() / 1000),
        };
        return { ...token, ...claims };
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
  };
}

type Ctx = { params: Promise<{ nextauth: string[] }> };

export async function handleNextAuth(request: Request, context: Ctx): Promise<Response> {
  const correlationId = readCorrelationId(request.headers);
  let response: Response;
  try {
    const config = getConfig();
    // next-auth builds its own URLs from NEXTAUTH_URL; derive it from APP_URL so there is one setting.
    process.env.NEXTAUTH_URL ??= config.appUrl;
    const handler = NextAuth(authOptions(requireAuthSecret(), config.appUrl));
    const { nextauth } = await context.params;
    const isSignIn = request.method === 'POST' && nextauth.join('/') === 'callback/credentials';
    response = await (handler as unknown as (r: Request, c: Ctx) => Promise<Response>)(request, context);
    if (isSignIn) response = await reshapeSignInFailure(response, correlationId);
  } catch (error) {
    if (!isAppError(error)) getLogger().error({ correlationId, err: String(error) }, 'next-auth failure');
    response = appErrorResponse(isAppError(error) ? error : new AppError('INTERNAL_ERROR', 'Something went wrong'), correlationId);
  }
  response.headers.set(CORRELATION_HEADER, correlationId);
  return response;
}

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
  const messages: Partial<Record<ErrorCode, string>> = {
    UNAUTHENTICATED: 'The sign-in form expired; reload the page and try again',
    INVALID_CREDENTIALS: 'The e-mail, password or code is not correct',
    MFA_REQUIRED: 'Enter the code from your authenticator app or a backup code',
    ACCOUNT_LOCKED: 'Too many failed sign-in attempts; the account is locked for a while',
    DEPENDENCY_UNAVAILABLE: 'Sign-in is not available',
  };
  const error = new AppError(code, messages[code] ?? 'Sign-in failed', {
    retryAfterSeconds: retryAfter ? Number(retryAfter) : undefined,
  });
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append('set-cookie', cookie);
  if (error.options.retryAfterSeconds) headers.set('retry-after', String(error.options.retryAfterSeconds));
  return json({ ...errorBody(error, correlationId), url }, { status: error.status, headers });
}
