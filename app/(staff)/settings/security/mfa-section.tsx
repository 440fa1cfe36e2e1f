'use client';
// Two-step verification: enrol with a locally rendered QR code, backup codes shown once (and as a file), new backup
// codes, turn off; each after a step-up.
import { useState, type FormEvent } from 'react';
import QRCode from 'qrcode';
import { apiFetch } from '@/components/api-fetch';
import { ErrorNote } from '@/components/error-note';
import type { Status } from './security-account';
import { Form } from '@/components/form';

type Enrolment = { secret: string; otpauthUrl: string; qrDataUrl: string };

export function MfaSection({
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
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function start() {
    setError(null);
    try {
      const { secret, otpauthUrl } = await apiFetch<{ secret: string; otpauthUrl: string }>('/api/auth/mfa');
      // Rendered here in the browser: the secret never goes to a third-party QR service.
      const svg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
      setEnrolment({ secret, otpauthUrl, qrDataUrl: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
    } catch (err) {
      setError(err);
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
      setError(err);
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
      setError(err);
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
      setError(err);
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
          <Form onSubmit={disable} noValidate>
            <label htmlFor="mfa-disable-code">Code from your app or a backup code</label>
            <input id="mfa-disable-code" name="mfa-disable-code" autoComplete="one-time-code" required />
            <p className="muted">
              You will be asked to confirm it is you first. Use a new code here, not the one you confirmed with.
            </p>
            <button type="submit" disabled={busy}>
              Turn off two-step verification
            </button>
          </Form>
        </>
      ) : enrolment ? (
        <Form onSubmit={enable} noValidate>
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
        </Form>
      ) : (
        <>
          <p data-testid="mfa-status">Off. Add an authenticator app so a stolen password is not enough to sign in.</p>
          <button type="button" onClick={start}>
            Set up an authenticator app
          </button>
        </>
      )}
      {error ? <ErrorNote error={error} /> : null}
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
