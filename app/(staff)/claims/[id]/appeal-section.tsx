'use client';
// The appeals of a denied or partly paid claim, and the form that files one (POST /appeal, behind a step-up).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { useDateFormat } from '@/components/billing/use-date-format';
import { Form } from '@/components/form';
import { Field } from '@/components/form-field';
import { ErrorNote } from '@/components/error-note';
import type { ClaimDetail } from '@/lib/claims/get-claim';

export function AppealSection({
  path,
  claim,
  canAppeal,
  onDone,
}: {
  path: string;
  claim: ClaimDetail;
  canAppeal: boolean;
  onDone: (message: string) => void;
}) {
  const fmt = useDateFormat();
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const [reason, setReason] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  // The denial queue's "Appeal" links here with #appeal: the form appears once the claim has loaded, so the
  // browser's own jump to the anchor came too early.
  useEffect(() => {
    if (window.location.hash !== '#appeal') return;
    reasonRef.current?.scrollIntoView({ block: 'center' });
    reasonRef.current?.focus();
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!reason.trim()) {
      setFieldError('Say why the payer should pay this claim.');
      return;
    }
    setFieldError(null);
    setBusy(true);
    try {
      const answer = await apiFetch<{ correlationId?: string }>(`${path}/appeal`, {
        method: 'POST',
        json: { reason: reason.trim() },
      });
      setReason('');
      onDone(`Appeal filed${answer.correlationId ? ` (reference ${answer.correlationId})` : ''}.`);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" id="appeal" aria-labelledby="claim-appeal-title">
      <h2 id="claim-appeal-title">Appeal</h2>
      {claim.appeals.length ? (
        <ul>
          {claim.appeals.map((appeal, i) => (
            <li key={i}>
              {fmt.dateTime(appeal.createdAt)}: {appeal.reason}
            </li>
          ))}
        </ul>
      ) : null}
      {canAppeal ? (
        <Form onSubmit={submit} noValidate>
          <Field id="appeal-reason" label="Why the payer should pay this claim" issue={fieldError}>
            {(control) => (
              <textarea
                {...control}
                ref={reasonRef}
                rows={4}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
              />
            )}
          </Field>
          <p className="muted">Filing an appeal asks you to confirm it&apos;s you.</p>
          <button type="submit" disabled={busy}>
            {busy ? 'Filing…' : 'File appeal'}
          </button>
          {error ? <ErrorNote error={error} otherwise="The appeal could not be filed." /> : null}
        </Form>
      ) : null}
    </section>
  );
}
