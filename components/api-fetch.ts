// Browser fetch for our /api routes: JSON in and out, our error body ({ code, message, correlationId, issues })
// thrown as ApiError, and one retry after a step-up when a route answers STEP_UP_REQUIRED. The step-up itself is
// asked of whatever prompt is registered (components/step-up-dialog.tsx registers one on mount); without a
// prompt, or when the user cancels, the STEP_UP_REQUIRED error is thrown like any other.
export type ApiErrorBody = { code: string; message: string; correlationId?: string; issues?: { path: string; message: string }[] };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
    readonly retryAfterSeconds?: number,
  ) {
    super(body.message);
    this.name = 'ApiError';
  }

  get code(): string {
    return this.body.code;
  }
}

/** Resolves true once the user has stepped up, false if they cancelled. */
export type StepUpPrompt = () => Promise<boolean>;

let prompt: StepUpPrompt | null = null;
let pending: Promise<boolean> | null = null;

/** Installs the step-up prompt; returns the function that removes it again. */
export function registerStepUpPrompt(next: StepUpPrompt): () => void {
  prompt = next;
  return () => {
    if (prompt === next) prompt = null;
  };
}

/**
 * Opens the registered step-up prompt (one at a time: calls made while it is open share its answer). False when
 * no prompt is registered or the user cancelled.
 */
export function requestStepUp(): Promise<boolean> {
  if (!prompt) return Promise.resolve(false);
  pending ??= prompt().finally(() => {
    pending = null;
  });
  return pending;
}

export type ApiFetchOptions = Omit<RequestInit, 'body'> & {
  /** Sent as the JSON body. */
  json?: unknown;
  /** false: never prompt for a step-up (the step-up dialog's own calls). Default true. */
  stepUp?: boolean;
};

/** Calls the API; resolves the parsed JSON (undefined for 204), throws ApiError for any non-2xx answer. */
export async function apiFetch<T = unknown>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  const first = await send(path, options);
  if (first.status === 401 && options.stepUp !== false) {
    const error = await readError(first.clone());
    if (error.code === 'STEP_UP_REQUIRED' && (await requestStepUp())) return parse<T>(await send(path, options));
  }
  return parse<T>(first);
}

function send(path: string, options: ApiFetchOptions): Promise<Response> {
  const { json, stepUp: _stepUp, headers, ...init } = options;
  const merged = new Headers(headers);
  merged.set('accept', 'application/json');
  if (json !== undefined) merged.set('content-type', 'application/json');
  return fetch(path, {
    ...init,
    headers: merged,
    body: json === undefined ? undefined : JSON.stringify(json),
    credentials: 'same-origin',
    cache: 'no-store',
  });
}

async function readError(response: Response): Promise<ApiErrorBody> {
  try {
    const body = (await response.json()) as Partial<ApiErrorBody>;
    if (typeof body.code === 'string' && typeof body.message === 'string') return body as ApiErrorBody;
  } catch {
    /* not our error body */
  }
  return { code: response.status >= 500 ? 'INTERNAL_ERROR' : 'UNKNOWN', message: `The request failed (${response.status})` };
}

async function parse<T>(response: Response): Promise<T> {
  if (!response.ok) {
    const retryAfter = response.headers.get('retry-after');
    throw new ApiError(response.status, await readError(response), retryAfter ? Number(retryAfter) : undefined);
  }
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** A sentence for the UI: the server's message, plus when to retry after a 429. */
export function describeApiError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 429 && error.retryAfterSeconds) {
      const minutes = Math.ceil(error.retryAfterSeconds / 60);
      return `${error.message} (about ${minutes} minute${minutes === 1 ? '' : 's'}).`;
    }
    return error.message;
  }
  if (error instanceof Error && error.name === 'NotAllowedError') return 'The passkey prompt was cancelled or timed out.';
  return error instanceof Error ? error.message : 'Something went wrong.';
}
