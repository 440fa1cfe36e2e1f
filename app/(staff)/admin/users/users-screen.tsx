'use client';
// The users screen: who can sign in to this clinic and with which scopes, and the admin's actions on them (unlock,
// reset MFA, deactivate, change scopes; only on users whose scopes are all the admin's own). Every change goes
// through apiFetch with a description, so the step-up dialog says what it confirms ("Unlock ana@clinic.test"); a
// cancelled step-up changes nothing and shows nothing.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ApiError } from '@/components/api-error';
import { apiFetch } from '@/components/api-fetch';
import { describeApiError } from '@/components/describe-api-error';
import { isStepUpCancelled } from '@/components/step-up-prompt';
import { ScopeChecklist } from './scope-checklist';
import { useClinicTime } from '@/components/clinic-time';

type User = {
  id: string;
  email: string;
  scopes: string[];
  mfaEnabled: boolean;
  locked: boolean;
  lockedUntil: string | null;
  deactivated: boolean;
  invitationPending: boolean;
  createdAt: string;
};

type Action = { path: string; label: string; describe: (u: User) => string; show: (u: User, self: boolean) => boolean };

const ACTIONS: Action[] = [
  { path: 'unlock', label: 'Unlock', describe: (u) => `Unlock ${u.email}`, show: (u) => u.locked && !u.deactivated },
  {
    path: 'reset-mfa',
    label: 'Reset MFA',
    describe: (u) => `Reset two-step verification of ${u.email}`,
    show: (u) => u.mfaEnabled && !u.deactivated,
  },
  {
    path: 'deactivate',
    label: 'Deactivate',
    describe: (u) => `Deactivate ${u.email}`,
    show: (u, self) => !u.deactivated && !self,
  },
];

async function fetchUsers(): Promise<{ users: User[] } | { error: string }> {
  try {
    return await apiFetch<{ users: User[] }>('/api/users');
  } catch (error) {
    return { error: describeApiError(error, { withReference: true }) };
  }
}

export function UsersScreen({
  ownScopes,
  ownUserId,
  clinicName,
}: {
  ownScopes: readonly string[];
  ownUserId: string;
  clinicName: string;
}) {
  const [users, setUsers] = useState<User[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [editing, setEditing] = useState<User | null>(null);
  /** The server refuses any action on a user holding a scope the admin lacks: offer none. */
  const withinReach = (user: User) => user.scopes.every((scope) => ownScopes.includes(scope));

  const apply = useCallback((loaded: { users: User[] } | { error: string }) => {
    if ('error' in loaded) setLoadError(loaded.error);
    else {
      setUsers(loaded.users);
      setLoadError(null);
    }
  }, []);
  const load = useCallback(async () => apply(await fetchUsers()), [apply]);

  useEffect(() => {
    let current = true;
    void fetchUsers().then((loaded) => {
      if (current) apply(loaded);
    });
    return () => {
      current = false;
    };
  }, [apply]);

  async function act(user: User, action: Action) {
    setBusyId(user.id);
    setNotice(null);
    setActionError(null);
    try {
      await apiFetch(`/api/users/${encodeURIComponent(user.id)}/${action.path}`, {
        method: 'POST',
        stepUpDescription: action.describe(user),
      });
      setNotice(`Done: ${action.describe(user)}.`);
      await load();
    } catch (error) {
      if (!isStepUpCancelled(error)) setActionError(describeApiError(error, { withReference: true }));
    } finally {
      setBusyId(null);
    }
  }

  return (
    <>
      <InviteForm ownScopes={ownScopes} clinicName={clinicName} onInvited={load} />
      <section className="card" aria-labelledby="users-title">
        <h2 id="users-title">People who can sign in to {clinicName}</h2>
        <p role="status" className="admin-notice">
          {notice ?? ''}
        </p>
        {actionError && (
          <p role="alert" className="error">
            {actionError}
          </p>
        )}
        {loadError && (
          <p role="alert" className="error">
            {loadError}
          </p>
        )}
        {editing && (
          <EditScopesForm
            key={editing.id}
            user={editing}
            ownScopes={ownScopes}
            onDone={async (message) => {
              setEditing(null);
              if (message) {
                setNotice(message);
                await load();
              }
            }}
          />
        )}
        {users && users.length === 0 && <p>No users yet.</p>}
        {users && users.length > 0 && (
          <table className="admin-list">
            <caption className="visually-hidden">Users of {clinicName}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">State</th>
                <th scope="col">Scopes</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => {
                const self = user.id === ownUserId;
                const reachable = withinReach(user);
                const actions = reachable ? ACTIONS.filter((a) => a.show(user, self)) : [];
                const editable = reachable && !self && !user.deactivated;
                return (
                  <tr key={user.id} data-testid={`user-${user.email}`}>
                    <th scope="row" data-label="E-mail">
                      {user.email}
                      {self && <span className="muted"> (you)</span>}
                    </th>
                    <td data-label="State">
                      <UserState user={user} />
                    </td>
                    <td data-label="Scopes">
                      <span className="mono admin-scopes">{user.scopes.join(', ')}</span>
                    </td>
                    <td data-label="Actions">
                      {actions.length === 0 && !editable && <span className="muted">None</span>}
                      <span className="admin-actions">
                        {editable && (
                          <button
                            type="button"
                            className="secondary"
                            disabled={busyId !== null}
                            aria-label={`Change scopes of ${user.email}`}
                            onClick={() => setEditing(user)}
                          >
                            Change scopes
                          </button>
                        )}
                        {actions.map((action) => (
                          <button
                            key={action.path}
                            type="button"
                            className="secondary"
                            disabled={busyId !== null}
                            aria-label={`${action.label} ${user.email}`}
                            onClick={() => act(user, action)}
                          >
                            {action.label}
                          </button>
                        ))}
                      </span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

function UserState({ user }: { user: User }) {
  const states: string[] = [];
  if (user.deactivated) states.push('Deactivated');
  if (user.locked) states.push('Locked');
  if (user.invitationPending) states.push('Invited, not yet signed up');
  states.push(user.mfaEnabled ? 'MFA on' : 'MFA off');
  return <>{states.join(' · ')}</>;
}

function InviteForm({
  ownScopes,
  clinicName,
  onInvited,
}: {
  ownScopes: readonly string[];
  clinicName: string;
  onInvited: () => Promise<void>;
}) {
  const clock = useClinicTime();
  const [busy, setBusy] = useState(false);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [scopesError, setScopesError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [invitation, setInvitation] = useState<{ email: string; url: string; expiresAt: string } | null>(null);
  const [scopes, setScopes] = useState<string[]>([]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const email = String(form.get('invite-email') ?? '').trim();
    setFailure(null);
    setInvitation(null);
    setEmailError(email.includes('@') ? null : 'Enter the e-mail address the person signs in with');
    setScopesError(scopes.length > 0 ? null : 'Choose at least one scope');
    if (!email.includes('@') || scopes.length === 0) return;
    setBusy(true);
    try {
      const answer = await apiFetch<{ user: { email: string }; invitationUrl: string; expiresAt: string }>(
        '/api/users',
        { method: 'POST', json: { email, scopes }, stepUpDescription: `Invite ${email}` },
      );
      setInvitation({ email: answer.user.email, url: answer.invitationUrl, expiresAt: answer.expiresAt });
      formElement.reset();
      setScopes([]);
      await onInvited();
    } catch (error) {
      if (isStepUpCancelled(error)) return;
      const issue = error instanceof ApiError ? error.body.issues?.find((i) => i.path === 'body.email') : undefined;
      if (issue) setEmailError(issue.message);
      else setFailure(describeApiError(error, { withReference: true }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <form onSubmit={submit} noValidate>
        <label htmlFor="invite-email">E-mail</label>
        <input
          id="invite-email"
          name="invite-email"
          type="email"
          autoComplete="off"
          required
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? 'invite-email-error' : undefined}
        />
        {emailError && (
          <p id="invite-email-error" className="error">
            {emailError}
          </p>
        )}
        <ScopeChecklist
          idPrefix="invite"
          legend="What they may do"
          ownScopes={ownScopes}
          value={scopes}
          onChange={setScopes}
          error={scopesError}
        />
        {failure && (
          <p role="alert" className="error">
            {failure}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Inviting…' : 'Invite'}
        </button>
      </form>
      {invitation && (
        <div role="status" className="admin-invitation">
          <p>
            {invitation.email} can now join {clinicName}. Send them this link; it works once and until{' '}
            {clock.date(invitation.expiresAt)}. It is shown only now.
          </p>
          <label htmlFor="invitation-link">Invitation link</label>
          <input id="invitation-link" readOnly value={invitation.url} onFocus={(e) => e.currentTarget.select()} />
        </div>
      )}
    </section>
  );
}

function EditScopesForm({
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
  const [failure, setFailure] = useState<string | null>(null);
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
      if (!isStepUpCancelled(error)) setFailure(describeApiError(error, { withReference: true }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby="edit-scopes-title" className="card">
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
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
      <p className="row">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save scopes'}
        </button>
        <button type="button" className="secondary" onClick={() => onDone(null)}>
          Cancel
        </button>
      </p>
    </form>
  );
}
