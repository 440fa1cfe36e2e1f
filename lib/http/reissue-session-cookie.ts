// After a password change bumps sessionVersion (which ends every session of the user), the session that made the
// change is re-issued at the new version so its owner stays signed in: the same claims and session id, the same
// end of life (8 h from sign-in, never extended), only `sessionVersion` new. Cookie sessions only: a bearer
// caller signs in again. The cookie is next-auth's own (same name and attributes as lib/auth/next-auth.ts sets).
import { encode } from 'next-auth/jwt';
import {
  SESSION_MAX_AGE_SECONDS,
  decodeSessionToken,
  findSessionToken,
  sessionCookieName,
} from '../auth/session-token';

export async function reissueSessionCookie(
  request: Request,
  settings: { appUrl: string; secret: string; sessionVersion: number; now: Date },
): Promise<string | undefined> {
  const found = findSessionToken(request.headers, settings.appUrl);
  if (!found || found.via !== 'cookie') return undefined;
  const claims = await decodeSessionToken(found.token, settings.secret, settings.now);
  const maxAge = claims.authenticatedAt + SESSION_MAX_AGE_SECONDS - Math.floor(settings.now.getTime() / 1000);
  if (maxAge <= 0) return undefined;
  const token = await encode({
    token: { ...claims, sessionVersion: settings.sessionVersion },
    secret: settings.secret,
    maxAge,
  });
  const secure = settings.appUrl.startsWith('https://');
  const parts = [
    `${sessionCookieName(settings.appUrl)}=${token}`,
    'Path=/',
    `Max-Age=${maxAge}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}
