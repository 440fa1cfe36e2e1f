'use client';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'next/navigation';
import { signInWithPassword } from '@/components/auth-client';
import { safeRedirectPath } from '@/lib/auth/safe-redirect-path';

export function LoginForm() {
  const params = useSearchParams();
  const [needsCode, setNeedsCode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const result = await signInWithPassword({
      email: String(form.get('email') ?? ''), password: String(form.get('password') ?? ''),
      mfaCode: needsCode ? String(form.get('mfaCode') ?? '') : undefined,
    });
    setBusy(false);
    if (result.ok) {
      // Only same-origin paths: an open redirect after sign-in would be a phishing aid.
      window.location.assign(safeRedirectPath(params.get('callbackUrl'), window.location.origin));
      return;
    }
    if (result.error.code === 'MFA_REQUIRED') {
      setNeedsCode(true);
      setError(needsCode ? result.error.message : null);
      return;
    }
    if (result.status === 423 || result.status === 429) {
      const minutes = Math.ceil((result.retryAfterSeconds ?? 900) / 60);
      const what = result.status === 423 ? 'The account is locked' : 'Sign-in from this network is paused';
      setError(`Too many failed attempts. ${what}; try again in about ${minutes} minute${minutes === 1 ? '' : 's'}.`);
      return;
    }
    setError(result.error.message);
  }

  return (
    <form onSubmit={submit} noValidate>
      <label htmlFor="email">E-mail</label>
      <input id="email" name="email" type="email" autoComplete="username" required />
      <label htmlFor="password">Password</label>
      <input id="password" name="password" type="password" autoComplete="current-password" required />
      {needsCode && (
        <>
          <label htmlFor="mfaCode">Authentication code</label>
          <input id="mfaCode" name="mfaCode" inputMode="text" autoComplete="one-time-code" required autoFocus
            aria-describedby="mfa-help" />
          <p id="mfa-help" className="muted">The 6-digit code from your authenticator app, or one of your backup codes.</p>
        </>
      )}
      {error && <p role="alert" className="error">{error}</p>}
      <p><button type="submit" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button></p>
    </form>
  );
}
