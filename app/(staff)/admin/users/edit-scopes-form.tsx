'use client';
// The form that changes a user's scopes (only the admin's own can be given or taken), behind a step-up.
import { useState, type FormEvent } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { ErrorNote } from '@/components/error-note';
import { ScopeChecklist } from './scope-checklist';
import { Form } from '@/components/form';
import type { UserView as User } from '@/lib/users/user-view';

export function EditScopesForm({
  user,
  ownScopes,
  onDone,
}: {
  user: User;
  ownScopes: readonly string[];
  /** Called with a notice after a change, with null when cancelled. */
  onDone: (message: string | null) => Promise<void>;
}) {
  const [scopes, setScopes] = useState<string[]>(user.scopes);
  const [scopesError, setScopesError] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    setScopesError(scopes.length > 0 ? null : 'Choose at least one scope');
    if (scopes.length === 0) return;
    setBusy(true);
    try {
      await apiFetch(`/api/users/${encodeURIComponent(user.id)}`, {
        method: 'PATCH',
        json: { scopes },
        stepUpDescription: `Change the scopes of ${user.email}`,
      });
      await onDone(`Done: ${user.email} now has ${scopes.join(', ')}.`);
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form onSubmit={submit} noValidate aria-labelledby="edit-scopes-title" className="card">
      <h3 id="edit-scopes-title">Change what {user.email} may do</h3>
      <ScopeChecklist
        idPrefix="edit"
        legend="Scopes"
        ownScopes={ownScopes}
        value={scopes}
        onChange={setScopes}
        error={scopesError}
      />
      <p className="muted">A removed scope stops at once; an added one works from their next sign-in.</p>
      {failure ? <ErrorNote error={failure} /> : null}
      <p className="row">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save scopes'}
        </button>
        <button type="button" className="secondary" onClick={() => onDone(null)}>
          Cancel
        </button>
      </p>
    </Form>
  );
}
