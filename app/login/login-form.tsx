'use client';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'next/navigation';
import { ApiError } from '@/components/api-error';
import { describeApiError } from '@/components/describe-api-error';
import { Form } from '@/components/form';
import { Field } from '@/components/form-field';
import { postNextAuthForm } from '@/components/post-next-auth-form';
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
    const mfaCode = needsCode ? String(form.get('mfaCode') ?? '') : '';
    try {
      await postNextAuthForm('callback/credentials', {
        email: String(form.get('email') ?? ''),
        password: String(form.get('password') ?? ''),
        ...(mfaCode ? { mfaCode } : {}),
      });
    } catch (failure) {
      setBusy(false);
      const asksForCode = failure instanceof ApiError && failure.code === 'MFA_REQUIRED';
      if (asksForCode) setNeedsCode(true);
      // The first ask for a code grows the form; only a second one (the code was wrong) is an error.
      setError(asksForCode && !needsCode ? null : describeSignInFailure(failure));
      return;
    }
    setBusy(false);
    // Only same-origin paths: an open redirect after sign-in would be a phishing aid.
    window.location.assign(safeRedirectPath(params.get('callbackUrl'), window.location.origin));
  }

  return (
    <Form onSubmit={submit} noValidate>
      <Field id="email" label="E-mail">
        {(control) => <input {...control} name="email" type="email" autoComplete="username" required />}
      </Field>
      <Field id="password" label="Password">
        {(control) => <input {...control} name="password" type="password" autoComplete="current-password" required />}
      </Field>
      {needsCode && (
        <Field
          id="mfaCode"
          label="Authentication code"
          hint="The 6-digit code from your authenticator app, or one of your backup codes."
        >
          {(control) => (
            <input {...control} name="mfaCode" inputMode="text" autoComplete="one-time-code" required autoFocus />
          )}
        </Field>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <p>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </p>
    </Form>
  );
}

function describeSignInFailure(failure: unknown): string {
  if (failure instanceof ApiError && (failure.status === 423 || failure.status === 429)) {
    const minutes = Math.ceil((failure.retryAfterSeconds ?? 900) / 60);
    const what = failure.status === 423 ? 'The account is locked' : 'Sign-in from this network is paused';
    return `Too many failed attempts. ${what}; try again in about ${minutes} minute${minutes === 1 ? '' : 's'}.`;
  }
  return failure instanceof ApiError ? failure.message : describeApiError(failure).text;
}
