'use client';
// The form that invites a user to the clinic: the e-mail address and scopes (only the admin's own), behind a step-up;
// then the invitation link to pass on and when it expires.
import { useState, type FormEvent } from 'react';
import { ApiError } from '@/components/api-error';
import { apiFetch } from '@/components/api-fetch';
import { Form } from '@/components/form';
import { Field } from '@/components/form-field';
import { ScopeChecklist } from './scope-checklist';
import { useClinicTime } from '@/components/clinic-time';
import { ErrorNote } from '@/components/error-note';

export function InviteForm({
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
  const [failure, setFailure] = useState<unknown>(null);
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
      const issue = error instanceof ApiError ? error.body.issues?.find((i) => i.path === 'body.email') : undefined;
      if (issue) setEmailError(issue.message);
      else setFailure(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <Form onSubmit={submit} noValidate>
        <Field id="invite-email" label="E-mail" issue={emailError}>
          {(control) => <input {...control} name="invite-email" type="email" autoComplete="off" required />}
        </Field>
        <ScopeChecklist
          idPrefix="invite"
          legend="What they may do"
          ownScopes={ownScopes}
          value={scopes}
          onChange={setScopes}
          error={scopesError}
        />
        {failure ? <ErrorNote error={failure} /> : null}
        <button type="submit" disabled={busy}>
          {busy ? 'Inviting…' : 'Invite'}
        </button>
      </Form>
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
