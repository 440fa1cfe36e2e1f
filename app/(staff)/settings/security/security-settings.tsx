'use client';
// The security screen's sections: password change (ends your other sessions), two-step verification (enrol with a
// locally rendered QR code, backup codes shown once, new backup codes, turn off; each after a step-up) and passkeys
// (list, add, remove). Every change goes through apiFetch, so a STEP_UP_REQUIRED answer opens the layout's
// <StepUpDialog /> and the call is retried once confirmed.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import QRCode from 'qrcode';
import {
  browserSupportsWebAuthn,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
} from '@simplewebauthn/browser';
import { apiFetch } from '@/components/api-fetch';
import { describeApiError } from '@/components/describe-api-error';
import { signOut } from '@/components/sign-out';
import { isStepUpCancelled } from '@/components/step-up-prompt';
import { PasswordSection } from './password-section';
import { useClinicTime } from '@/components/clinic-time';

/** The sentence for a failed change; a cancelled step-up is no failure, so it says nothing. */
const failureOf = (error: unknown): string | null => (isStepUpCancelled(error) ? null : describeApiError(error));

type Status = { mfaEnabled: boolean; backupCodesRemaining: number; passkeyCount: number };
type Passkey = {
  id: string;
  name: string | null;
  deviceType: string;
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
};
type Enrolment = { secret: string; otpauthUrl: string; qrDataUrl: string };

type Loaded = { status: Status; passkeys: Passkey[] } | { error: string };

async function loadSecurity(): Promise<Loaded> {
  try {
    const [status, list] = await Promise.all([
      apiFetch<Status>('/api/auth/step-up'),
      apiFetch<{ passkeys: Passkey[] }>('/api/auth/webauthn/credentials'),
    ]);
    return { status, passkeys: list.passkeys };
  } catch (error) {
    return { error: describeApiError(error) };
  }
}

export function SecuritySettings() {
  const [status, setStatus] = useState<Status | null>(null);
  const [passkeys, setPasskeys] = useState<Passkey[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  // Enabling or disabling MFA ends every session (sessionVersion bump), this one included.
  const [sessionEnded, setSessionEnded] = useState<string | null>(null);

  const apply = useCallback((loaded: Loaded) => {
    if ('error' in loaded) {
      setLoadError(loaded.error);
      return;
    }
    setStatus(loaded.status);
    setPasskeys(loaded.passkeys);
    setLoadError(null);
  }, []);

  const reload = useCallback(async () => apply(await loadSecurity()), [apply]);

  useEffect(() => {
    let current = true;
    void loadSecurity().then((loaded) => {
      if (current) apply(loaded);
    });
    return () => {
      current = false;
    };
  }, [apply]);

  return (
    <>
      {loadError && (
        <p role="alert" className="error">
          {loadError}
        </p>
      )}
      {sessionEnded && <SessionEnded message={sessionEnded} />}
      {!sessionEnded && <PasswordSection />}
      {status && !sessionEnded && <MfaSection status={status} onSessionEnded={setSessionEnded} onChanged={reload} />}
      {status && <PasskeySection passkeys={passkeys} onChanged={reload} disabled={!!sessionEnded} />}
    </>
  );
}

function SessionEnded({ message }: { message: string }) {
  return (
    <section className="card" aria-labelledby="session-ended-title">
      <h2 id="session-ended-title">Sign in again</h2>
      <p role="status">{message}</p>
      <button
        type="button"
        onClick={async () => {
          await signOut();
          window.location.assign('/login?callbackUrl=/settings/security');
        }}
      >
        Sign in again
      </button>
    </section>
  );
}

function MfaSection({
  status,
  onSessionEnded,
  onChanged,
}: {
  status: Status;
  onSessionEnded: (message: string) => void;
  onChanged: () => Promise<void>;
}) {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [backupCodes, setBackupCodes] = useState<string[] | null>(null);
  // New codes for an account that already had MFA on: this session goes on, unlike after turning MFA on.
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function start() {
    setError(null);
    try {
      const { secret, otpauthUrl } = await apiFetch<{ secret: string; otpauthUrl: string }>('/api/auth/mfa');
      // Rendered here in the browser: the secret never goes to a third-party QR service.
      const svg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
      setEnrolment({ secret, otpauthUrl, qrDataUrl: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
    } catch (err) {
      setError(describeApiError(err));
    }
  }

  async function enable(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!enrolment) return;
    const token = String(new FormData(event.currentTarget).get('mfa-enable-code') ?? '');
    setBusy(true);
    setError(null);
    try {
      const result = await apiFetch<{ backupCodes: string[] }>('/api/auth/mfa', {
        method: 'POST',
        json: { action: 'enable', secret: enrolment.secret, token },
        stepUpDescription: 'Turn on two-step verification',
      });
      setEnrolment(null);
      setBackupCodes(result.backupCodes);
    } catch (err) {
      setError(failureOf(err));
    } finally {
      setBusy(false);
    }
  }

  async function disable(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const token = String(new FormData(event.currentTarget).get('mfa-disable-code') ?? '');
    setBusy(true);
    setError(null);
    try {
      await apiFetch('/api/auth/mfa', {
        method: 'POST',
        json: { action: 'disable', token },
        stepUpDescription: 'Turn off two-step verification',
      });
      onSessionEnded('Two-step verification is off. Every session of your account has ended, this one too.');
    } catch (err) {
      setError(failureOf(err));
    } finally {
      setBusy(false);
    }
  }

  async function regenerate() {
    setBusy(true);
    setError(null);
    try {
      const result = await apiFetch<{ backupCodes: string[] }>('/api/auth/mfa/backup-codes', {
        method: 'POST',
        stepUpDescription: 'Make new backup codes (your old ones stop working)',
      });
      setNewCodes(result.backupCodes);
    } catch (err) {
      setError(failureOf(err));
    } finally {
      setBusy(false);
    }
  }

  if (newCodes) {
    return (
      <section className="card" aria-labelledby="backup-title">
        <h2 id="backup-title">Save your new backup codes</h2>
        <p role="status">
          Your old backup codes no longer work. Each code below signs you in once if you lose your phone. They are shown
          only now.
        </p>
        <BackupCodeList codes={newCodes} />
        <button
          type="button"
          onClick={async () => {
            setNewCodes(null);
            await onChanged();
          }}
        >
          I saved my codes
        </button>
      </section>
    );
  }

  if (backupCodes) {
    return (
      <section className="card" aria-labelledby="backup-title">
        <h2 id="backup-title">Save your backup codes</h2>
        <p role="status">
          Two-step verification is on. Each code below signs you in once if you lose your phone. They are shown only
          now.
        </p>
        <BackupCodeList codes={backupCodes} />
        <p>
          Every session of your account has ended, this one too. Once the codes are safe, sign in again with a code from
          your app.
        </p>
        <button
          type="button"
          onClick={() => onSessionEnded('Sign in with your password and a code from your authenticator app.')}
        >
          I saved my codes
        </button>
      </section>
    );
  }

  return (
    <section className="card" aria-labelledby="mfa-title">
      <h2 id="mfa-title">Two-step verification</h2>
      {status.mfaEnabled ? (
        <>
          <p data-testid="mfa-status">
            On. {status.backupCodesRemaining} backup code{status.backupCodesRemaining === 1 ? '' : 's'} left.
          </p>
          <p className="row">
            <button type="button" className="secondary" disabled={busy} onClick={regenerate}>
              Make new backup codes
            </button>
          </p>
          <p className="muted">New codes replace every earlier one, used or not.</p>
          <form onSubmit={disable} noValidate>
            <label htmlFor="mfa-disable-code">Code from your app or a backup code</label>
            <input id="mfa-disable-code" name="mfa-disable-code" autoComplete="one-time-code" required />
            <p className="muted">
              You will be asked to confirm it is you first. Use a new code here, not the one you confirmed with.
            </p>
            <button type="submit" disabled={busy}>
              Turn off two-step verification
            </button>
          </form>
        </>
      ) : enrolment ? (
        <form onSubmit={enable} noValidate>
          <p>Scan this code with your authenticator app, or type the key below into it.</p>
          {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL rendered in the browser, nothing to optimise */}
          <img
            src={enrolment.qrDataUrl}
            alt="QR code to add this account to your authenticator app"
            width={200}
            height={200}
          />
          <p>
            Key: <code data-testid="mfa-secret">{enrolment.secret}</code>
          </p>
          <label htmlFor="mfa-enable-code">Code from your app</label>
          <input
            id="mfa-enable-code"
            name="mfa-enable-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            required
          />
          <p className="row">
            <button type="submit" disabled={busy}>
              Turn on two-step verification
            </button>
            <button type="button" className="secondary" onClick={() => setEnrolment(null)}>
              Cancel
            </button>
          </p>
        </form>
      ) : (
        <>
          <p data-testid="mfa-status">Off. Add an authenticator app so a stolen password is not enough to sign in.</p>
          <button type="button" onClick={start}>
            Set up an authenticator app
          </button>
        </>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}

function BackupCodeList({ codes }: { codes: string[] }) {
  return (
    <>
      <ol className="mono" data-testid="backup-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <p className="row">
        <button type="button" className="secondary" onClick={() => navigator.clipboard?.writeText(codes.join('\n'))}>
          Copy codes
        </button>
        <button type="button" className="secondary" onClick={() => downloadCodes(codes)}>
          Download codes
        </button>
      </p>
    </>
  );
}

function downloadCodes(codes: string[]) {
  const text = `Clinic Revenue Platform backup codes (each works once)\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'backup-codes.txt';
  link.click();
  URL.revokeObjectURL(url);
}

function PasskeySection({
  passkeys,
  onChanged,
  disabled,
}: {
  passkeys: Passkey[];
  onChanged: () => Promise<void>;
  disabled: boolean;
}) {
  const clock = useClinicTime();
  const [error, setError] = useState<string | null>(null);
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
      setError(failureOf(err));
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
      setError(failureOf(err));
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
      {passkeys.length === 0 ? (
        <p data-testid="no-passkeys">No passkeys yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="muted" style={{ textAlign: 'left' }}>
              Your passkeys
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Added</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="muted">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {passkeys.map((p) => (
                <tr key={p.id} data-testid="passkey-row">
                  <td>{passkeyLabel(p)}</td>
                  <td>{clock.dateTime(p.createdAt)}</td>
                  <td>{p.lastUsedAt ? clock.dateTime(p.lastUsedAt) : 'Never'}</td>
                  <td>
                    <button
                      type="button"
                      className="secondary"
                      disabled={busy || disabled}
                      onClick={() => remove(p)}
                      aria-label={`Remove passkey ${passkeyLabel(p)}`}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form onSubmit={add} noValidate>
        <label htmlFor="passkey-name">Name for a new passkey (optional)</label>
        <input id="passkey-name" name="passkey-name" maxLength={60} placeholder="e.g. Work laptop" />
        <p>
          <button type="submit" disabled={busy || disabled}>
            Add a passkey
          </button>
        </p>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}

function passkeyLabel(p: Passkey): string {
  return p.name ?? `Passkey …${p.id.slice(-6)}`;
}
