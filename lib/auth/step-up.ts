// The step-up claim: a short-lived HS256 JWT under STEP_UP_SECRET, bound to org, user and sessionVersion, so a
// claim of user A never serves user B and dies with the session. Carried as the httpOnly cookie svc-step-up or
// the x-svc-step-up header. Minted by POST /api/auth/step-up; required by gated routes through the wrapper.
import { SignJWT, jwtVerify } from 'jose';
import { AppError, isAppError } from '../errors';
import type { Principal } from './principal';
import { readCookie } from './session-token';

export const STEP_UP_COOKIE = 'svc-step-up';
export const STEP_UP_HEADER = 'x-svc-step-up';
export const STEP_UP_TTL_SECONDS = 300;
const AUDIENCE = 'svc-step-up';

export type StepUpFactor = 'password' | 'mfa' | 'webauthn';

export async function mintStepUpClaim(
  principal: Pick<Principal, 'userId' | 'orgId' | 'sessionVersion'>,
  factor: StepUpFactor,
  secret: string,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = new Date((issuedAt + STEP_UP_TTL_SECONDS) * 1000);
  const token = await new SignJWT({ org: principal.orgId, sv: principal.sessionVersion, amr: [factor] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(principal.userId)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + STEP_UP_TTL_SECONDS)
    .setJti(crypto.randomUUID())
    .sign(new TextEncoder().encode(secret));
  return { token, expiresAt };
}

export function stepUpRequired(message = 'Confirm it is you to continue'): AppError {
  return new AppError('STEP_UP_REQUIRED', message, {
    headers: { 'www-authenticate': 'Bearer error="insufficient_user_authentication", error_description="A recent step-up authentication is required"' },
  });
}

/** Throws STEP_UP_REQUIRED unless the request carries a valid, unexpired claim for this principal's session. */
export async function requireStepUp(headers: Headers, principal: Principal, secret: string, now: Date): Promise<void> {
  const token = headers.get(STEP_UP_HEADER) ?? readCookie(headers, STEP_UP_COOKIE);
  if (!token) throw stepUpRequired();
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      audience: AUDIENCE,
      subject: principal.userId,
      currentDate: now,
      clockTolerance: 0,
    });
    if (payload.org !== principal.orgId || payload.sv !== principal.sessionVersion) throw stepUpRequired();
  } catch (cause) {
    if (isAppError(cause)) throw cause;
    throw stepUpRequired();
  }
}
