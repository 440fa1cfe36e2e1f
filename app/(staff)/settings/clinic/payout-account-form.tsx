'use client';
// The clinic's payout account (PUT /api/clinic/payout-account, step-up through apiFetch's dialog): shown masked,
// with whether the bank has confirmed its prenote. The numbers typed are sent once and never shown again.
import { useState, type FormEvent } from 'react';
import { Form } from '@/components/form';
import type { PayoutAccountView } from '@/lib/payouts/payout-account';
import { apiFetch } from '@/components/api-fetch';
import { ApiError } from '@/components/api-error';
import { useApiRead } from '@/components/billing/use-api-read';
import { issueField } from '@/components/describe-api-error';
import { ErrorNote } from '@/components/error-note';
import { Field, TextField } from '@/components/form-field';

const EMPTY = { routingNumber: '', accountNumber: '', accountType: 'checking', holderName: '' };
type Form = typeof EMPTY;

export function PayoutAccountForm() {
  const [version, setVersion] = useState(0);
  const { data, error: readError } = useApiRead<PayoutAccountView>('/api/clinic/payout-account', version);
  const [form, setForm] = useState(EMPTY);
  // Each problem beside its field, as the API names it (`body.routingNumber`: "fails the ABA check digit").
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setIssues({});
    setNotice('');
    try {
      await apiFetch<PayoutAccountView>('/api/clinic/payout-account', { method: 'PUT', json: form });
      setForm(EMPTY);
      setNotice('Payout account saved. It is verified once the bank confirms the batch carrying its prenote.');
      setVersion((v) => v + 1);
    } catch (failure) {
      if (failure instanceof ApiError && failure.body.issues?.length)
        setIssues(Object.fromEntries(failure.body.issues.map((issue) => [issueField(issue.path), issue.message])));
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  const field = (name: Exclude<keyof Form, 'accountType'>, label: string, hint?: string) => (
    <TextField
      id={`payout-${name}`}
      label={label}
      hint={hint}
      inputMode={name === 'holderName' ? undefined : 'numeric'}
      value={form[name]}
      onChange={(value) => setForm((now) => ({ ...now, [name]: value }))}
      issue={issues[name]}
    />
  );

  return (
    <section className="card" aria-labelledby="payout-title" data-testid="payout-account">
      <h2 id="payout-title">Payout account</h2>
      {data ? (
        <p data-testid="payout-account-current">
          {data.holderName}, {data.accountType} account ending {data.accountLast4} (routing ending {data.routingLast4}
          ): {data.verified ? 'verified by the bank' : 'not verified yet (waiting for its prenote)'}
        </p>
      ) : (
        <p className="muted">{readError ? 'No payout account yet.' : 'Loading…'}</p>
      )}
      <Form onSubmit={submit} noValidate aria-label="Payout account">
        <fieldset className="fd-fieldset" disabled={busy}>
          <legend>{data ? 'Replace it' : 'Set it'}: sent once, never shown again</legend>
          {field('routingNumber', 'Routing number', '9 digits (ABA)')}
          {field('accountNumber', 'Account number', '4 to 17 digits')}
          <Field id="payout-accountType" label="Account type" issue={issues.accountType}>
            {(control) => (
              <select
                {...control}
                value={form.accountType}
                onChange={(e) => setForm((now) => ({ ...now, accountType: e.target.value }))}
              >
                <option value="checking">Checking</option>
                <option value="savings">Savings</option>
              </select>
            )}
          </Field>
          {field('holderName', 'Account holder', 'As the bank knows it; 22 characters at most')}
        </fieldset>
        <div className="fd-actions">
          <button type="submit" disabled={busy}>
            Save payout account
          </button>
        </div>
      </Form>
      {error ? <ErrorNote error={error} /> : null}
      <p aria-live="polite">{notice}</p>
    </section>
  );
}
