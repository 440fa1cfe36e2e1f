// next-auth (v4, credentials provider, JWT sessions) wired to our sign-in rules: who may sign in (sign-in.ts),
// what the session token carries, sign-out revoking the session on the server. Built per request with that
// request's deps; lib/http/next-auth-route.ts runs it and gives its failures our error shape.
import { randomUUID } from 'node:crypto';
import type { AuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import type { Config } from '../config';
import type { Db } from '../db';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import { isAppError } from '../errors';
import { isPoolTimeout, shedForPoolTimeout } from '../db/is-pool-timeout';
import { signIn, signInNoticeOf, type SignedInUser } from './sign-in';
import { SESSION_MAX_AGE_SECONDS, sessionCookieName, type SessionClaims } from './session-token';
import { readClientAddress } from './client-address';
import { safeRedirectPath } from './safe-redirect-path';
import { isSessionRevoked, revokeSession } from './revoke-session';

type NextAuthDeps = {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'appUrl' | 'sealKey' | 'trustedProxyHops'>;
  log: Logger;
};

/**
 * A sign-in failure reaches next-auth's error URL as our code (and Retry-After) in its `error` parameter:
 * next-auth carries only a message there. `secret` is AUTH_SECRET (requireAuthSecret).
 */
export function authOptions(deps: NextAuthDeps, secret: string, correlationId: string): AuthOptions {
  const { appUrl } = deps.config;
  const secure = appUrl.startsWith('https://');
  // __Host- (Secure, Path=/, no Domain) behind https for every cookie next-auth sets; its default for these two
  // is __Secure-, which a sibling subdomain could still plant.
  const hostCookie = (name: string) => ({
    name,
    options: { httpOnly: true, sameSite: 'lax' as const, path: '/', secure },
  });
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
          const headers = new Headers(req.headers as Record<string, string>);
          try {
            const user = await signIn(
              { db: deps.db, now: deps.clock(), sealKey: deps.config.sealKey },
              {
                email: credentials?.email ?? '',
                password: credentials?.password ?? '',
                mfaCode: credentials?.mfaCode,
                clientAddress: readClientAddress(headers, deps.config.trustedProxyHops),
                correlationId,
              },
            );
            return { ...user, name: user.email };
          } catch (caught) {
            // No connection within DATABASE_POOL_TIMEOUT_MS: 503 with Retry-After, as on every other route.
            const error = isPoolTimeout(caught)
              ? shedForPoolTimeout(caught, deps.log.child({ correlationId }))
              : caught;
            // next-auth carries only a message to its error URL: encode our code, Retry-After, the notice key and
            // the invalid fields (CODE[:seconds[:notice[:fields]]]); lib/http/next-auth-route.ts reads them back.
            if (isAppError(error)) {
              const notice = signInNoticeOf(error.message);
              const retry = error.options.retryAfterSeconds ?? '';
              // The failing fields' names (SIGN_IN_FIELD_RULES keys) as a fourth part: CODE:::email,password.
              const fields = (error.options.issues ?? []).map((issue) => issue.path.replace(/^body\./, '')).join(',');
              const parts = [error.code, String(retry), notice ?? '', fields];
              while (parts.length > 1 && parts.at(-1) === '') parts.pop();
              throw new Error(parts.join(':'));
            }
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
          if (typeof sid !== 'string' || (await isSessionRevoked(deps.db, sid))) throw new Error('session ended');
          return token;
        }
        const u = user as unknown as SignedInUser;
        const claims: SessionClaims = {
          sub: u.id,
          email: u.email,
          orgId: u.orgId,
          clinicId: u.clinicId,
          clinicName: u.clinicName,
          scopes: u.scopes,
          sessionVersion: u.sessionVersion,
          authenticatedAt: Math.floor(Date.now() / 1000),
          sid: randomUUID(),
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
          user: {
            id: t.sub,
            email: t.email,
            orgId: t.orgId,
            clinicId: t.clinicId,
            clinicName: t.clinicName,
            scopes: t.scopes,
          },
        };
      },
    },
    events: {
      // Runs once next-auth has accepted the sign-out (CSRF token checked) with the decoded session token.
      async signOut({ token }) {
        const { sid, sub, authenticatedAt } = (token ?? {}) as Partial<SessionClaims>;
        if (typeof sid !== 'string' || typeof sub !== 'string' || typeof authenticatedAt !== 'number') return;
        try {
          await revokeSession(deps.db, { sid, sub, authenticatedAt }, deps.clock());
        } catch (error) {
          // next-auth would swallow it and clear the cookie anyway; the log must say the token still works.
          deps.log.error({ correlationId, userId: sub, err: String(error) }, 'sign-out could not revoke the session');
          throw error;
        }
      },
    },
  };
}
