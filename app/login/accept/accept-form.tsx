'use client';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'next/navigation';
import { ApiError } from '@/components/api-error';
import { apiFetch } from '@/components/api-fetch';
import { Form } from '@/components/form';
import { Field } from '@/components/form-field';
import { ErrorNote } from '@/components/error-note';

const MIN_CHARS = 12;

export function AcceptForm() {
  const token = useSearchParams().get('token') ?? '';
  const [busy, setBusy] = useState(false);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [email, setEmail] = useState<string | null>(null);

  if (!token)
    return (
      <p role="alert" className="error">
        This page needs the link from your invitation e-mail; ask your clinic admin to send it again.
      </p>
    );

  if (email)
    return (
      <p role="status">
        Your password is set. <a href={`/login`}>Sign in as {email}</a>.
      </p>
    );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    const confirm = String(form.get('confirm') ?? '');
    setFailure(null);
    setPasswordError(password.length >= MIN_CHARS ? null : `Use at least ${MIN_CHARS} characters`);
    setConfirmError(confirm === password ? null : 'Type the same password twice');
    if (password.length < MIN_CHARS || confirm !== password) return;
    setBusy(true);
    try {
      const answer = await apiFetch<{ email: string }>('/api/users/invitations/accept', {
        method: 'POST',
        json: { token, password },
        stepUp: false,
      });
      setEmail(answer.email);
    } catch (error) {
      const issue = error instanceof ApiError ? error.body.issues?.find((i) => i.path === 'body.password') : undefined;
      if (issue) setPasswordError(issue.message);
      else setFailure(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form onSubmit={submit} noValidate>
      <Field
        id="password"
        label="New password"
        hint={`At least ${MIN_CHARS} characters; a phrase is easiest to remember.`}
        issue={passwordError}
      >
        {(control) => <input {...control} name="password" type="password" autoComplete="new-password" required />}
      </Field>
      <Field id="confirm" label="New password again" issue={confirmError}>
        {(control) => <input {...control} name="confirm" type="password" autoComplete="new-password" required />}
      </Field>
      {failure ? <ErrorNote error={failure} /> : null}
      <p>
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Set password'}
        </button>
      </p>
    </Form>
  );
}
