// Where apiFetch asks for a step-up: whatever prompt is registered (components/step-up-dialog.tsx registers one
// on mount). Kept apart from the dialog so apiFetch needs no React. Also what a cancelled prompt throws: an
// ApiError a screen can tell apart (isStepUpCancelled) and show nothing for, since cancelling is not an error.
import { ApiError } from './api-error';

/** What the step-up confirms, in words for the dialog (e.g. "Remove passkey 'YubiKey'"). */
export type StepUpRequest = { description?: string };

/** Resolves true once the user has stepped up, false if they cancelled. */
type StepUpPrompt = (request: StepUpRequest) => Promise<boolean>;

let prompt: StepUpPrompt | null = null;
let pending: Promise<boolean> | null = null;

/** Installs the step-up prompt; returns the function that removes it again. */
export function registerStepUpPrompt(next: StepUpPrompt): () => void {
  prompt = next;
  return () => {
    if (prompt === next) prompt = null;
  };
}

export const hasStepUpPrompt = () => prompt !== null;

/**
 * Opens the registered step-up prompt (one at a time: calls made while it is open share its answer, and the
 * first caller's description). False when no prompt is registered or the user cancelled.
 */
export function requestStepUp(request: StepUpRequest = {}): Promise<boolean> {
  if (!prompt) return Promise.resolve(false);
  pending ??= prompt(request).finally(() => {
    pending = null;
  });
  return pending;
}

/** Thrown by apiFetch when the user cancelled the step-up: nothing was done, and nothing went wrong. */
export class StepUpCancelled extends ApiError {
  readonly cancelled = true;
  constructor(correlationId?: string) {
    super(401, { code: 'STEP_UP_REQUIRED', message: 'Cancelled; nothing was changed.', correlationId });
    this.name = 'StepUpCancelled';
  }
}

export const isStepUpCancelled = (error: unknown): error is StepUpCancelled =>
  error instanceof ApiError && (error as Partial<StepUpCancelled>).cancelled === true;
