// The browser side of the OAuth routes: a person (Accept: text/html) who starts or finishes an authorization is
// sent back to the integrations screen with the outcome in the query (?oauth=connected|failed, our error code and
// the correlation id, never a message, code or token), instead of a JSON body. API callers get JSON as SPEC says.
import type { Logger } from '../log';
import { isAppError } from '../errors';
import { redirect } from './responses';

export const INTEGRATIONS_PATH = '/settings/integrations';

export const prefersHtml = (headers: Headers) => /\btext\/html\b/i.test(headers.get('accept') ?? '');

type BrowserContext = { wantsHtml: boolean; appUrl: string; correlationId: string; log: Logger };

/**
 * Runs one OAuth step. For a browser: an AppError redirects to the failure outcome (logged here, since the
 * wrapper does not see it), and success to the `onSuccess(result)` query when there is one (without, the result
 * goes to the endpoint's renderer, e.g. authorize's 302 to the EMR). For an API caller: the result or the error,
 * unchanged. Other errors always propagate (a 500 from the wrapper).
 */
export async function withBrowserOutcome<T>(
  context: BrowserContext,
  step: () => Promise<T>,
  onSuccess?: (result: T) => Record<string, string>,
): Promise<T | Response> {
  const back = (query: Record<string, string>) =>
    redirect(`${context.appUrl}${INTEGRATIONS_PATH}?${new URLSearchParams(query)}`);
  let result: T;
  try {
    result = await step();
  } catch (error) {
    if (!context.wantsHtml || !isAppError(error)) throw error;
    context.log[error.status >= 500 ? 'error' : 'info'](
      { code: error.code, status: error.status, cause: String(error.cause ?? '') },
      error.message,
    );
    return back({ oauth: 'failed', code: error.code, correlationId: context.correlationId });
  }
  if (!context.wantsHtml || !onSuccess) return result;
  return back(onSuccess(result));
}
