// Authentication thresholds from DECISIONS.md ("Sessions, step-up, factors"), in one place so sign-in, step-up and
// MFA code share them. Constants only: counting failures and enforcing the limits live with the callers.

/** Sign-in: 5 consecutive failures lock the account for 15 minutes (423 ACCOUNT_LOCKED). */
export const SIGN_IN_LOCK = { failures: 5, lockSeconds: 900 } as const;

/**
 * Sign-in per client address: 30 failed attempts (any accounts, unknown e-mails included) per 15-minute window,
 * then 429 RATE_LIMITED. Bounds password spraying, which the per-account lock cannot see; 30 leaves room for a
 * clinic's staff behind one NAT address mistyping on a busy morning (six accounts' worth of full lockouts).
 */
export const SIGN_IN_ADDRESS_LIMIT = { failures: 30, windowSeconds: 900 } as const;

/** Sign-in form limits, enforced before any lookup or password work (400 VALIDATION_FAILED beyond them). */
export const SIGN_IN_INPUT_LIMITS = {
  bodyBytes: 8 * 1024,
  emailChars: 320,
  passwordChars: 1024,
  mfaCodeChars: 64,
} as const;

/** Step-up, MFA checks and WebAuthn attempts: 5 failures per user per 15-minute window, then 429 RATE_LIMITED. */
export const FACTOR_LIMIT = { failures: 5, windowSeconds: 900 } as const;

/** Lifetime of a step-up claim. */
export const STEP_UP_TTL_SECONDS = 300;

/** Backup codes issued per MFA enrolment (each single use). */
export const BACKUP_CODE_COUNT = 10;
