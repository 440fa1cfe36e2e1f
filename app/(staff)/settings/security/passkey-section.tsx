'use client';
// Passkeys: the account's list, adding one through the browser's WebAuthn prompt, and removing one; each after a
// step-up.
import { useState, type FormEvent } from 'react';
import {
  browserSupportsWebAuthn,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
} from '@simplewebauthn/browser';
import { apiFetch } from '@/components/api-fetch';
import { useClinicTime } from '@/components/clinic-time';
import { DataTable } from '@/components/data-table';
import { ErrorNote } from '@/components/error-note';
import type { Passkey } from './security-account';
import { Form } from '@/components/form';

export function PasskeySection({
  passkeys,
  onChanged,
  disabled,
}: {
  passkeys: Passkey[];
  onChanged: () => Promise<void>;
  disabled: boolean;
}) {
  const clock = useClinicTime();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const name = String(new FormData(formElement).get('passkey-name') ?? '').trim();
    if (!browserSupportsWebAuthn()) {
      setError('This browser does not support passkeys.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { options } = await apiFetch<{ options: PublicKeyCredentialCreationOptionsJSON }>(
        '/api/auth/webauthn/register',
        { method: 'POST', json: { step: 'options' }, stepUpDescription: 'Add a passkey' },
      );
      const response = await startRegistration({ optionsJSON: options });
      await apiFetch('/api/auth/webauthn/register', {
        method: 'POST',
        json: { step: 'verify', response, ...(name ? { name } : {}) },
        stepUpDescription: 'Add a passkey',
      });
      formElement.reset();
      await onChanged();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function remove(passkey: Passkey) {
    setBusy(true);
    setError(null);
    try {
      await apiFetch(`/api/auth/webauthn/credentials/${encodeURIComponent(passkey.id)}`, {
        method: 'DELETE',
        stepUpDescription: `Remove passkey '${passkeyLabel(passkey)}'`,
      });
      await onChanged();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <p className="muted">
        A passkey on this device or a security key can confirm sensitive actions instead of a password or code.
      </p>
      <DataTable
        rows={passkeys}
        caption="Your passkeys"
        empty={<span data-testid="no-passkeys">No passkeys yet.</span>}
        stack="admin"
        rowKey={(p) => p.id}
        rowProps={() => ({ 'data-testid': 'passkey-row' })}
        columns={[
          { header: 'Name', rowHeader: true, cell: (p) => passkeyLabel(p) },
          { header: 'Added', cell: (p) => clock.dateTime(p.createdAt) },
          { header: 'Last used', cell: (p) => (p.lastUsedAt ? clock.dateTime(p.lastUsedAt) : 'Never') },
          {
            header: <span className="muted">Actions</span>,
            label: 'Actions',
            cell: (p) => (
              <button
                type="button"
                className="secondary"
                disabled={busy || disabled}
                onClick={() => remove(p)}
                aria-label={`Remove passkey ${passkeyLabel(p)}`}
              >
                Remove
              </button>
            ),
          },
        ]}
      />
      <Form onSubmit={add} noValidate>
        <label htmlFor="passkey-name">Name for a new passkey (optional)</label>
        <input id="passkey-name" name="passkey-name" maxLength={60} placeholder="e.g. Work laptop" />
        <p>
          <button type="submit" disabled={busy || disabled}>
            Add a passkey
          </button>
        </p>
      </Form>
      {error ? <ErrorNote error={error} /> : null}
    </section>
  );
}

function passkeyLabel(p: Passkey): string {
  return p.name ?? `Passkey …${p.id.slice(-6)}`;
}
