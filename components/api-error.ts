// The one client-side error: an /api answer that was not 2xx, carrying the server's error body in the server's
// own vocabulary (lib/errors.ts, imported as types only: nothing of the server reaches the bundle).
import type { ErrorCode, ErrorIssue } from '@/lib/errors';

/**
 * What every /api error answers with: the route wrapper, middleware and next-auth's sign-in alike. The
 * correlation id is absent only when the answer did not come from our server (a proxy's error page).
 */
export type ApiErrorBody = { code: ErrorCode; message: string; correlationId?: string; issues?: ErrorIssue[] };

export class ApiError extends Error {
  constructor(
    /** The answer's HTTP status: 200 for an error sent as a streamed body's last line. */
    readonly status: number,
    readonly body: ApiErrorBody,
    /** From Retry-After (423, 429). */
    readonly retryAfterSeconds?: number,
  ) {
    super(body.message);
    this.name = 'ApiError';
  }

  get code(): ErrorCode {
    return this.body.code;
  }
}
