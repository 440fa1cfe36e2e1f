// One field of a staff form: its label, the control, an optional hint and the problem found in it (by the form
// itself, or by the API's `issues[].path`), the hint and the problem tied to the control for screen readers. Ids:
// the control's own, `<id>-hint` and `<id>-error`, which is also the problem's test id. What the control is (a text
// box, a date, a select, a picker) is the caller's; what stays the same on every form is here.
import type { ReactNode } from 'react';

/** What a field's control carries: its id, whether it holds a problem, and the notes that describe it. */
export type ControlProps = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

export function Field({
  id,
  label,
  hint,
  issue,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** The problem in words; nothing is shown (and the control is not marked invalid) when empty. */
  issue?: string | null | undefined;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const control: ControlProps = {
    id,
    'aria-invalid': issue ? true : undefined,
    'aria-describedby': [hint ? `${id}-hint` : '', issue ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined,
  };
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      {children(control)}
      {hint ? (
        <div id={`${id}-hint`} className="muted">
          {hint}
        </div>
      ) : null}
      <FieldIssue id={id} issue={issue} />
    </div>
  );
}

/** The problem note alone, for a control that draws its own label (a picker): `<id>-error`. */
export function FieldIssue({ id, issue }: { id: string; issue?: string | null | undefined }) {
  if (!issue) return null;
  return (
    <div id={`${id}-error`} className="error" data-testid={`${id}-error`}>
      {issue}
    </div>
  );
}

/** A Field whose control is a one-line text box (or date, number...), the most common kind. */
export function TextField({
  value,
  onChange,
  type = 'text',
  inputMode,
  placeholder,
  autoComplete = 'off',
  ...field
}: Omit<Parameters<typeof Field>[0], 'children'> & {
  value: string;
  onChange: (value: string) => void;
  type?: string;
  inputMode?: 'numeric' | 'decimal' | 'text';
  placeholder?: string;
  autoComplete?: string;
}) {
  return (
    <Field {...field}>
      {(control) => (
        <input
          {...control}
          type={type}
          inputMode={inputMode}
          placeholder={placeholder}
          autoComplete={autoComplete}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
