// Authentication thresholds from DECISIONS.md ("Sessions, step-up, factors"), in one place so sign-in, step-up and
// MFA code share them. Constants only: counting failures and enforcing the limits live with the callers.

/** Sign-in: 5 consecutive failures lock the account for 15 minutes (423 ACCOUNT_LOCKED). */
export const SIGN_IN_LOCK = { failures: 5, lockSeconds: 900 } as const;

/** Step-up, MFA checks and WebAuthn attempts: 5 failures per user per 15-minute window, then 429 RATE_LIMITED. */
export const FACTOR_LIMIT = { failures: 5, windowSeconds: 900 } as const;

/** Lifetime of a step-up claim. */
export const STEP_UP_TTL_SECONDS = 300;

/** Backup codes issued per MFA enrolment (each single use). */
export const BACKUP_CODE_COUNT = 10;
