'use client';
// The security screen's password change: current password and a new one (twice), over POST /api/auth/password.
// The server ends every other session of the account and re-issues this one, so the screen stays signed in.
// Field errors are sentences next to their fields, from the route's own issues.
import { useState, type FormEvent } from 'react';
import { ApiError } from '@/components/api-error';
import { apiFetch } from '@/components/api-fetch';
import { Form } from '@/components/form';
import { Field } from '@/components/form-field';
import { ErrorNote } from '@/components/error-note';

type FieldErrors = Partial<Record<'currentPassword' | 'newPassword' | 'confirmPassword', string>>;

const MIN_CHARS = 12;

export function PasswordSection() {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [done, setDone] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const currentPassword = String(form.get('currentPassword') ?? '');
    const newPassword = String(form.get('newPassword') ?? '');
    const confirmPassword = String(form.get('confirmPassword') ?? '');
    setDone(false);
    setFailure(null);
    const local: FieldErrors = {};
    if (!currentPassword) local.currentPassword = 'Enter your current password';
    if (newPassword.length < MIN_CHARS) local.newPassword = `Use at least ${MIN_CHARS} characters`;
    if (confirmPassword !== newPassword) local.confirmPassword = 'Type the same new password twice';
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      await apiFetch('/api/auth/password', { method: 'POST', json: { currentPassword, newPassword } });
      formElement.reset();
      setDone(true);
    } catch (error) {
      const fieldErrors: FieldErrors = {};
      if (error instanceof ApiError)
        for (const issue of error.body.issues ?? []) {
          const field = issue.path.replace(/^body\./, '') as keyof FieldErrors;
          if (field === 'currentPassword' || field === 'newPassword') fieldErrors[field] = issue.message;
        }
      setErrors(fieldErrors);
      if (Object.keys(fieldErrors).length === 0) setFailure(error);
    } finally {
      setBusy(false);
    }
  }

  const field = (name: keyof FieldErrors, label: string, autoComplete: string, help?: string) => (
    <Field id={`pw-${name}`} label={label} hint={help} issue={errors[name]}>
      {(control) => <input {...control} name={name} type="password" autoComplete={autoComplete} required />}
    </Field>
  );

  return (
    <section className="card" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <Form onSubmit={submit} noValidate>
        {field('currentPassword', 'Current password', 'current-password')}
        {field('newPassword', 'New password', 'new-password', `At least ${MIN_CHARS} characters; a phrase is easiest.`)}
        {field('confirmPassword', 'New password again', 'new-password')}
        {failure ? <ErrorNote error={failure} /> : null}
        <p role="status">{done ? 'Password changed. Your other sessions have been signed out.' : ''}</p>
        <button type="submit" disabled={busy}>
          {busy ? 'Changing…' : 'Change password'}
        </button>
      </Form>
    </section>
  );
}
