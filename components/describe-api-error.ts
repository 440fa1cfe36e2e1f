// A sentence for the UI from whatever a call threw: the server's message for an ApiError (after a 429, when to
// try again), a cancelled passkey prompt in words, and otherwise the screen's own sentence for a call that got
// no answer (network lost, stream cut).
import { ApiError } from './api-error';

type DescribeOptions = {
  /** Adds the correlation id, for staff to quote to support. */
  withReference?: boolean;
  /** Said when the call got no answer from the server; default: the error's own message. */
  otherwise?: string;
};

export function describeApiError(error: unknown, options: DescribeOptions = {}): string {
  if (error instanceof ApiError) {
    let text = error.message;
    if (error.status === 429 && error.retryAfterSeconds) {
      const minutes = Math.ceil(error.retryAfterSeconds / 60);
      text += ` (about ${minutes} minute${minutes === 1 ? '' : 's'})`;
    }
    if (options.withReference && error.body.correlationId) text += ` (reference ${error.body.correlationId})`;
    return text;
  }
  if (error instanceof Error && error.name === 'NotAllowedError')
    return 'The passkey prompt was cancelled or timed out.';
  if (options.otherwise) return options.otherwise;
  return error instanceof Error ? error.message : 'Something went wrong.';
}
