// One text field of the verify form: its label, an optional hint, and the error the last check found in it, both
// tied to the input for screen readers (ids verify-<name>, verify-<name>-hint, verify-<name>-error).
export function VerifyField({
  name,
  label,
  value,
  onChange,
  type = 'text',
  hint,
  issue,
}: {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  hint?: string;
  issue?: string;
}) {
  return (
    <div>
      <label htmlFor={`verify-${name}`}>{label}</label>
      <input
        id={`verify-${name}`}
        type={type}
        value={value}
        autoComplete="off"
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={issue ? true : undefined}
        aria-describedby={
          [hint ? `verify-${name}-hint` : '', issue ? `verify-${name}-error` : ''].filter(Boolean).join(' ') ||
          undefined
        }
      />
      {hint ? (
        <div id={`verify-${name}-hint`} className="muted">
          {hint}
        </div>
      ) : null}
      {issue ? (
        <div id={`verify-${name}-error`} className="error" data-testid={`verify-${name}-error`}>
          {issue}
        </div>
      ) : null}
    </div>
  );
}
