// The browser's one way to call our /api routes, for every screen and the sign-in and sign-out forms: a JSON or
// form body in; the parsed JSON, or the Response itself for a streamed body, out; any non-2xx answer thrown as
// ApiError. A route answering STEP_UP_REQUIRED opens the step-up prompt (components/step-up-prompt.ts) and is
// sent once more after the user confirms; without a prompt that error is thrown too, and when the user cancels,
// StepUpCancelled (a screen shows nothing for it: isStepUpCancelled).
import { ApiError, type ApiErrorBody } from './api-error';
import { hasStepUpPrompt, requestStepUp, StepUpCancelled } from './step-up-prompt';

type ApiFetchOptions = Omit<RequestInit, 'body'> & {
  /** Sent as the JSON body. */
  json?: unknown;
  /** Sent as an application/x-www-form-urlencoded body: next-auth's endpoints take forms. */
  form?: Record<string, string>;
  /** false: never prompt for a step-up (the step-up dialog's own calls). Default true. */
  stepUp?: boolean;
  /** What a step-up would confirm, shown in the dialog: "Remove passkey 'YubiKey'". */
  stepUpDescription?: string;
  /** true: resolve the Response itself once its status is known, for a body read as it arrives (NDJSON). */
  stream?: boolean;
};

/** Resolves the successful Response, its body unread; throws ApiError for any non-2xx answer. */
export function apiFetch(path: string, options: ApiFetchOptions & { stream: true }): Promise<Response>;
/** Resolves the parsed JSON (undefined for 204); throws ApiError for any non-2xx answer. */
export function apiFetch<T = unknown>(path: string, options?: ApiFetchOptions & { stream?: false }): Promise<T>;
export async function apiFetch(path: string, options: ApiFetchOptions = {}): Promise<unknown> {
  let response = await send(path, options);
  if (response.status === 401 && options.stepUp !== false) {
    const error = await readErrorBody(response.clone());
    if (error.code === 'STEP_UP_REQUIRED') {
      if (!(await requestStepUp({ description: options.stepUpDescription }))) {
        // No prompt registered: the server's own error. Cancelled by the user: not an error at all.
        if (hasStepUpPrompt()) throw new StepUpCancelled(error.correlationId);
      } else response = await send(path, options);
    }
  }
  if (!response.ok) {
    const retryAfter = response.headers.get('retry-after');
    throw new ApiError(response.status, await readErrorBody(response), retryAfter ? Number(retryAfter) : undefined);
  }
  if (options.stream) return response;
  return response.status === 204 ? undefined : response.json();
}

function send(path: string, options: ApiFetchOptions): Promise<Response> {
  const { json, form, stepUp: _stepUp, stepUpDescription: _description, stream: _stream, headers, ...init } = options;
  const merged = new Headers(headers);
  if (!merged.has('accept')) merged.set('accept', 'application/json');
  if (json !== undefined) merged.set('content-type', 'application/json');
  return fetch(path, {
    ...init,
    headers: merged,
    // A URLSearchParams body brings its own content type.
    body: json !== undefined ? JSON.stringify(json) : form ? new URLSearchParams(form) : undefined,
    credentials: 'same-origin',
    cache: 'no-store',
  });
}

async function readErrorBody(response: Response): Promise<ApiErrorBody> {
  try {
    const body = (await response.json()) as Partial<ApiErrorBody>;
    if (typeof body.code === 'string' && typeof body.message === 'string') return body as ApiErrorBody;
  } catch {
    /* not our error body */
  }
  // Not from our handlers (a proxy or the framework): to a screen that is an internal error, and the status says more.
  return {
    code: 'INTERNAL_ERROR',
    message: `The request failed (${response.status})`,
    correlationId: response.headers.get('x-correlation-id') ?? undefined,
  };
}
