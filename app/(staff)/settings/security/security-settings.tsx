'use client';
// The security screen's sections: password change (ends your other sessions), two-step verification (enrol with a
// locally rendered QR code, backup codes shown once, new backup codes, turn off; each after a step-up) and passkeys
// (list, add, remove). Every change goes through apiFetch, so a STEP_UP_REQUIRED answer opens the layout's
// <StepUpDialog /> and the call is retried once confirmed.
import { useCallback, useEffect, useState } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { signOut } from '@/components/sign-out';
import { ErrorNote } from '@/components/error-note';
import { PasswordSection } from './password-section';
import type { Status, Passkey } from './security-account';
import { MfaSection } from './mfa-section';
import { PasskeySection } from './passkey-section';

type Loaded = { status: Status; passkeys: Passkey[] } | { error: unknown };

async function loadSecurity(): Promise<Loaded> {
  try {
    const [status, list] = await Promise.all([
      apiFetch<Status>('/api/auth/step-up'),
      apiFetch<{ passkeys: Passkey[] }>('/api/auth/webauthn/credentials'),
    ]);
    return { status, passkeys: list.passkeys };
  } catch (error) {
    return { error };
  }
}

export function SecuritySettings() {
  const [status, setStatus] = useState<Status | null>(null);
  const [passkeys, setPasskeys] = useState<Passkey[]>([]);
  const [loadError, setLoadError] = useState<unknown>(null);
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
      {loadError ? <ErrorNote error={loadError} /> : null}
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
