'use client';
// The one step-up prompt: a modal dialog that re-authenticates with the account's factors (authenticator code or
// backup code, password, passkey) through POST /api/auth/step-up. Render <StepUpDialog /> once on a screen; it
// registers itself as the step-up prompt (components/step-up-prompt.ts), so any apiFetch call answered
// STEP_UP_REQUIRED opens it and is retried after the user confirms. It says what is being confirmed when the
// caller passed a description (apiFetch's stepUpDescription); Cancel and Escape end it without an error.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { ErrorNote } from '@/components/error-note';
import { apiFetch } from './api-fetch';
import { Form } from './form';
import { registerStepUpPrompt } from './step-up-prompt';

type Factor = 'mfa' | 'password' | 'webauthn';
type StepUpFactors = { factors: Factor[]; defaultFactor: 'mfa' | 'password' };

const LABELS: Record<Factor, string> = { mfa: 'Authenticator code', password: 'Password', webauthn: 'Passkey' };

export function StepUpDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const settle = useRef<((ok: boolean) => void) | null>(null);
  const [factors, setFactors] = useState<Factor[]>(['password']);
  const [factor, setFactor] = useState<Factor>('password');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [description, setDescription] = useState<string | null>(null);

  useEffect(
    () =>
      registerStepUpPrompt(async (request) => {
        let available: StepUpFactors = { factors: ['password'], defaultFactor: 'password' };
        try {
          available = await apiFetch<StepUpFactors>('/api/auth/step-up', { stepUp: false });
        } catch {
          /* offer the password; the server has the last word */
        }
        setFactors(available.factors);
        setFactor(available.defaultFactor);
        setError(null);
        setDescription(request.description ?? null);
        dialog.current?.showModal();
        return new Promise<boolean>((resolve) => {
          settle.current = resolve;
        });
      }),
    [],
  );

  function finish(ok: boolean) {
    const resolve = settle.current;
    settle.current = null;
    if (dialog.current?.open) dialog.current.close();
    resolve?.(ok);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setBusy(true);
    setError(null);
    try {
      if (factor === 'webauthn') {
        const { options } = await apiFetch<{ options: PublicKeyCredentialRequestOptionsJSON }>('/api/auth/step-up', {
          method: 'POST',
          json: { factor, step: 'options' },
          stepUp: false,
        });
        const response = await startAuthentication({ optionsJSON: options });
        await apiFetch('/api/auth/step-up', {
          method: 'POST',
          json: { factor, step: 'verify', response },
          stepUp: false,
        });
      } else {
        const json =
          factor === 'password'
            ? { factor, password: String(form.get('step-up-password') ?? '') }
            : { factor, token: String(form.get('step-up-code') ?? '') };
        await apiFetch('/api/auth/step-up', { method: 'POST', json, stepUp: false });
      }
      formElement.reset();
      finish(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={dialog}
      aria-labelledby="step-up-title"
      aria-describedby="step-up-what"
      onCancel={(event) => {
        // Escape: close through finish() so the waiting call learns it was cancelled.
        event.preventDefault();
        if (!busy) finish(false);
      }}
    >
      <Form onSubmit={submit} noValidate>
        <h2 id="step-up-title">Confirm it&apos;s you</h2>
        <p id="step-up-what">
          {description ? (
            <>
              To confirm: <strong data-testid="step-up-description">{description}</strong>.{' '}
            </>
          ) : (
            'This action needs a fresh confirmation. '
          )}
          <span className="muted">A confirmation lasts 5 minutes.</span>
        </p>
        {factors.length > 1 && (
          <fieldset>
            <legend>Confirm with</legend>
            {factors.map((f) => (
              <label key={f} style={{ fontWeight: 400 }}>
                <input
                  type="radio"
                  name="step-up-factor"
                  value={f}
                  checked={factor === f}
                  onChange={() => {
                    setFactor(f);
                    setError(null);
                  }}
                  style={{ width: 'auto', marginRight: '.5rem' }}
                />
                {LABELS[f]}
              </label>
            ))}
          </fieldset>
        )}
        {factor === 'password' && (
          <>
            <label htmlFor="step-up-password">Your password</label>
            <input
              id="step-up-password"
              name="step-up-password"
              type="password"
              autoComplete="current-password"
              required
              autoFocus
            />
          </>
        )}
        {factor === 'mfa' && (
          <>
            <label htmlFor="step-up-code">Code from your authenticator app, or a backup code</label>
            <input
              id="step-up-code"
              name="step-up-code"
              inputMode="text"
              autoComplete="one-time-code"
              required
              autoFocus
            />
          </>
        )}
        {factor === 'webauthn' && <p>Use your passkey when your browser asks.</p>}
        {error ? <ErrorNote error={error} /> : null}
        <p className="row">
          <button type="submit" disabled={busy}>
            {busy ? 'Checking…' : factor === 'webauthn' ? 'Use passkey' : 'Confirm'}
          </button>
          <button type="button" className="secondary" onClick={() => finish(false)} disabled={busy}>
            Cancel
          </button>
        </p>
      </Form>
    </dialog>
  );
}
