'use client';
// The scope checkboxes of the invite and edit forms: only the admin's own scopes are offered (the server refuses
// any other), and role presets (front desk, billing, admin: lib/users/role-presets.ts) tick a role's boxes at once.
// Controlled: the form owns the ticked list.
import { ROLE_PRESETS } from '@/lib/users/role-presets';

/** What each scope lets a person do, in the words of the screens that use it. */
export const SCOPE_LABELS: Record<string, string> = {
  'eligibility:read': 'Check eligibility (verify, roster)',
  'patients:read': 'See patients',
  'appointments:read': 'See appointments',
  'claims:read': 'See claims and denials',
  'claims:write': 'Create and submit claims, edit coverage on file',
  'svcpay:read': 'See remittances, bills, settlement',
  'svcpay:write': 'Post remittances, move money',
  'integrations:read': 'Manage EMR integrations',
  'users:admin': 'Manage users, read the audit log',
  'webhooks:admin': 'Manage webhook endpoints and their deliveries',
};

export function ScopeChecklist({
  idPrefix,
  legend,
  ownScopes,
  value,
  onChange,
  error,
}: {
  idPrefix: string;
  legend: string;
  ownScopes: readonly string[];
  value: readonly string[];
  onChange: (scopes: string[]) => void;
  error: string | null;
}) {
  const toggle = (scope: string, on: boolean) =>
    onChange(on ? ownScopes.filter((s) => s === scope || value.includes(s)) : value.filter((s) => s !== scope));
  return (
    <fieldset aria-describedby={error ? `${idPrefix}-scopes-error` : `${idPrefix}-scopes-help`}>
      <legend>{legend}</legend>
      <p id={`${idPrefix}-scopes-help`} className="muted">
        You can give only what you can do yourself. A role fills in its usual boxes.
      </p>
      <p className="row" role="group" aria-label="Roles">
        {ROLE_PRESETS.map((preset) => {
          const scopes = preset.scopes.filter((s) => ownScopes.includes(s));
          return (
            <button
              key={preset.id}
              type="button"
              className="secondary"
              disabled={scopes.length === 0}
              onClick={() => onChange([...scopes])}
            >
              {preset.label}
            </button>
          );
        })}
      </p>
      {ownScopes.map((scope) => (
        <label key={scope} className="checkbox">
          <input
            type="checkbox"
            name={`${idPrefix}-scope`}
            value={scope}
            checked={value.includes(scope)}
            onChange={(event) => toggle(scope, event.currentTarget.checked)}
          />
          {SCOPE_LABELS[scope] ?? scope} <span className="mono muted">({scope})</span>
        </label>
      ))}
      {error && (
        <p id={`${idPrefix}-scopes-error`} className="error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
