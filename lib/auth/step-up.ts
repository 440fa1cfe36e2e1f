// The step-up claim: a short-lived HS256 JWT under STEP_UP_SECRET, bound to org, user, sessionVersion and the
// session's id, so a claim of user A never serves user B and dies with the session: signing out and in again
// starts a session that no earlier claim serves, even one that outlived sign-out in a cookie jar or a script. Minted by POST /api/auth/step-up; required by
// gated routes through the wrapper. How it travels (cookie or header) is lib/http/step-up-cookie.ts's.
import { SignJWT, jwtVerify } from 'jose';
import { AppError, isAppError } from '../errors';
import type { Principal } from './principal';
import { STEP_UP_TTL_SECONDS } from './rate-limit-policy';

const AUDIENCE = 'svc-step-up';

export type StepUpFactor = 'password' | 'mfa' | 'webauthn';

export async function mintStepUpClaim(
  principal: Pick<Principal, 'userId' | 'orgId' | 'sessionVersion' | 'sessionId'>,
  factor: StepUpFactor,
  secret: string,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = new Date((issuedAt + STEP_UP_TTL_SECONDS) * 1000);
  const token = await new SignJWT({
    org: principal.orgId,
    sv: principal.sessionVersion,
    amr: [factor],
    ...(principal.sessionId ? { sid: principal.sessionId } : {}),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(principal.userId)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + STEP_UP_TTL_SECONDS)
    .setJti(crypto.randomUUID())
    .sign(new TextEncoder().encode(secret));
  return { token, expiresAt };
}

function stepUpRequired(message = 'Confirm it is you to continue'): AppError {
  return new AppError('STEP_UP_REQUIRED', message, {
    headers: {
      'www-authenticate':
        'Bearer error="insufficient_user_authentication", error_description="A recent step-up authentication is required"',
    },
  });
}

/** Throws STEP_UP_REQUIRED unless `token` (the claim the request carries) is valid and unexpired for this session. */
export async function requireStepUp(
  token: string | undefined,
  principal: Principal,
  secret: string,
  now: Date,
): Promise<void> {
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
    // A claim minted in a session is that session's only (claims minted outside one, by server tooling, carry none).
    if (payload.sid !== undefined && payload.sid !== principal.sessionId) throw stepUpRequired();
  } catch (cause) {
    if (isAppError(cause)) throw cause;
    throw stepUpRequired();
  }
}
