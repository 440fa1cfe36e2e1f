// What a new password must be, for an accepted invitation and a password change alike. Length is what counts
// (NIST SP 800-63B §5.1.1.2: at least 8, no composition rules); 12 for staff handling PHI and money. The upper
// bound is sign-in's own, so a password that can be set can always be typed into the sign-in form.
import { z } from 'zod';
import { SIGN_IN_INPUT_LIMITS } from '../auth/rate-limit-policy';

export const NEW_PASSWORD_MIN_CHARS = 12;

export const NewPassword = z
  .string()
  .min(NEW_PASSWORD_MIN_CHARS, { message: `Use at least ${NEW_PASSWORD_MIN_CHARS} characters` })
  .max(SIGN_IN_INPUT_LIMITS.passwordChars, {
    message: `Use at most ${SIGN_IN_INPUT_LIMITS.passwordChars} characters`,
  });
