// The public error vocabulary: each code has exactly one HTTP status (DECISIONS.md). Codes are part of the API.
// Domain code throws AppError; the route wrapper turns it into { code, message, correlationId }.

export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  MFA_REQUIRED: 401,
  SIGNATURE_INVALID: 401,
  STEP_UP_REQUIRED: 401,
  FORBIDDEN: 403,
  SCOPE_MISSING: 403,
  OUT_OF_SCOPE: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  IDEMPOTENCY_KEY_REUSED: 409,
  NOT_EXECUTABLE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE: 422,
  SCRUB_BLOCKED: 422,
  ACCOUNT_LOCKED: 423,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  NOT_CONFIGURED: 501,
  TRANSPORT_FAILED: 502,
  DEPENDENCY_UNAVAILABLE: 503,
  IN_PROGRESS: 202,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** `edit`: the scrub edit a claim fails (SCRUB_BLOCKED), so a screen can link the rule. */
export type ErrorIssue = { path: string; message: string; edit?: string };

// Next bundles instrumentation and each route separately, so one process can hold several copies of this class
// and `instanceof` fails across them (a typed 503 would surface as a 500). A global-registry symbol brands
// every AppError the same way in every copy.
const APP_ERROR = Symbol.for('clinic-revenue-platform.AppError');

export class AppError extends Error {
  readonly [APP_ERROR] = true;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: {
      cause?: unknown;
      /** Field-level problems, sent with VALIDATION_FAILED and SCRUB_BLOCKED. */
      issues?: ErrorIssue[];
      /** Seconds, sent as Retry-After (423, 429, 202). */
      retryAfterSeconds?: number;
      /** Extra response headers (e.g. WWW-Authenticate on STEP_UP_REQUIRED). */
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const isAppError = (error: unknown): error is AppError =>
  typeof error === 'object' && error !== null && (error as { [APP_ERROR]?: unknown })[APP_ERROR] === true;
