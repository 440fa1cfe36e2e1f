// Where apiFetch asks for a step-up: whatever prompt is registered (components/step-up-dialog.tsx registers one
// on mount). Kept apart from the dialog so apiFetch needs no React.

/** Resolves true once the user has stepped up, false if they cancelled. */
type StepUpPrompt = () => Promise<boolean>;

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
