'use client';
// The users screen: who can sign in to this clinic and with which scopes, and the admin's actions on them (unlock,
// reset MFA, deactivate, change scopes; only on users whose scopes are all the admin's own). Every change goes
// through apiFetch with a description, so the step-up dialog says what it confirms ("Unlock ana@clinic.test"); a
// cancelled step-up changes nothing and shows nothing.
import { useCallback, useEffect, useState } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { DataTable } from '@/components/data-table';
import { ErrorNote } from '@/components/error-note';
import type { UserView as User } from '@/lib/users/user-view';
import { InviteForm } from './invite-form';
import { EditScopesForm } from './edit-scopes-form';

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

async function fetchUsers(): Promise<{ users: User[] } | { error: unknown }> {
  try {
    return await apiFetch<{ users: User[] }>('/api/users');
  } catch (error) {
    return { error };
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
  const [loadError, setLoadError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [editing, setEditing] = useState<User | null>(null);
  /** The server refuses any action on a user holding a scope the admin lacks: offer none. */
  const withinReach = (user: User) => user.scopes.every((scope) => ownScopes.includes(scope));

  const apply = useCallback((loaded: { users: User[] } | { error: unknown }) => {
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
      setActionError(error);
    } finally {
      setBusyId(null);
    }
  }

  /** What the admin may do to a user: nothing to themselves or to a user holding a scope they lack. */
  function actionsOf(user: User) {
    const self = user.id === ownUserId;
    const reachable = withinReach(user);
    const actions = reachable ? ACTIONS.filter((a) => a.show(user, self)) : [];
    const editable = reachable && !self && !user.deactivated;
    return (
      <>
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
      </>
    );
  }

  return (
    <>
      <InviteForm ownScopes={ownScopes} clinicName={clinicName} onInvited={load} />
      <section className="card" aria-labelledby="users-title">
        <h2 id="users-title">People who can sign in to {clinicName}</h2>
        <p role="status" className="admin-notice">
          {notice ?? ''}
        </p>
        {actionError ? <ErrorNote error={actionError} /> : null}
        {loadError ? <ErrorNote error={loadError} /> : null}
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
        <DataTable
          rows={users}
          stack="admin"
          caption={`Users of ${clinicName}, newest first`}
          loading={null}
          empty="No users yet."
          rowKey={(user) => user.id}
          rowProps={(user) => ({ 'data-testid': `user-${user.email}` })}
          columns={[
            {
              header: 'E-mail',
              rowHeader: true,
              cell: (user) => (
                <>
                  {user.email}
                  {user.id === ownUserId && <span className="muted"> (you)</span>}
                </>
              ),
            },
            { header: 'State', cell: (user) => <UserState user={user} /> },
            { header: 'Scopes', cell: (user) => <span className="mono admin-scopes">{user.scopes.join(', ')}</span> },
            { header: 'Actions', cell: actionsOf },
          ]}
        />
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
