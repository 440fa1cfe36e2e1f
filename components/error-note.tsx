// An API failure as staff read it: the plain sentence (describe-api-error.ts; a sentence the screen wrote itself is
// said as it is), and the reference id small beside it, for support to look the request up. Announced as an alert.
// Every staff screen shows a failure through it.
import { describeApiError } from './describe-api-error';

export function ErrorNote({ error, otherwise, testId }: { error: unknown; otherwise?: string; testId?: string }) {
  const { text, reference } = describeApiError(error, { otherwise });
  if (!text) return null; // a cancelled step-up: nothing went wrong
  return (
    <p role="alert" className="error" data-testid={testId}>
      {text}
      {reference ? <small className="error-reference"> Reference: {reference}</small> : null}
    </p>
  );
}
