// The integrations screen's error: the server's message with each field's problem and the reference to quote.
import { ApiError } from '@/components/api-error';
import { describeApiError } from '@/components/describe-api-error';

/** What a call threw: the server's message with its field problems and reference, or why no answer came. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  if (!(error instanceof ApiError))
    return (
      <div role="alert" className="error">
        {describeApiError(error)}
      </div>
    );
  const { message, issues, correlationId } = error.body;
  return (
    <div role="alert" className="error">
      {message}
      {issues?.length ? (
        <ul>
          {issues.map((i) => (
            <li key={i.path}>
              {i.path.replace(/^body\./, '')}: {i.message}
            </li>
          ))}
        </ul>
      ) : null}
      {correlationId ? (
        <div className="muted">
          Reference: <code>{correlationId}</code>
        </div>
      ) : null}
    </div>
  );
}
