// GET /api/auth/mfa: a fresh TOTP secret and its otpauth:// URL for the enrolment QR code. Stores nothing: the
// secret reaches the database only when POST /api/auth/mfa {action: enable} proves the app holds it.
import { z } from 'zod';
import { requireSealKey, type Config } from '../config';
import type { Principal } from './principal';
import { createTotpSecret, totpUri } from './totp';

export const TOTP_ISSUER = 'Clinic Revenue Platform';

export const MfaEnrolment = z.object({ secret: z.string(), otpauthUrl: z.string() });

export function startMfaEnrolment(
  deps: { config: Pick<Config, 'sealKey'> },
  input: { principal: Principal },
): z.infer<typeof MfaEnrolment> {
  // Refused like enable when secrets cannot be sealed: a secret that can never be stored is no use to the user.
  requireSealKey(deps.config);
  const secret = createTotpSecret();
  return { secret, otpauthUrl: totpUri({ secret, accountName: input.principal.email, issuer: TOTP_ISSUER }) };
}
