'use client';
// The clinic's payout account (PUT /api/clinic/payout-account, step-up through apiFetch's dialog): shown masked,
// with whether the bank has confirmed its prenote. The numbers typed are sent once and never shown again.
import { useState, type FormEvent } from 'react';
import type { PayoutAccountView } from '@/lib/payouts/payout-account';
import { apiFetch } from '@/components/api-fetch';
import { ApiError } from '@/components/api-error';
import { useApiRead } from '@/components/billing/use-api-read';
import { ErrorNote } from '@/components/error-note';

export function PayoutAccountForm() {
  const [version, setVersion] = useState(0);
  const { data, error: readError } = useApiRead<PayoutAccountView>('/api/clinic/payout-account', version);
  const [form, setForm] = useState({ routingNumber: '', accountNumber: '', accountType: 'checking', holderName: '' });
  const [problems, setProblems] = useState<string[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setProblems([]);
    setNotice('');
    try {
      await apiFetch<PayoutAccountView>('/api/clinic/payout-account', { method: 'PUT', json: form });
      setForm({ routingNumber: '', accountNumber: '', accountType: 'checking', holderName: '' });
      setNotice('Payout account saved. It is verified once the bank confirms the batch carrying its prenote.');
      setVersion((v) => v + 1);
    } catch (failure) {
      if (failure instanceof ApiError && failure.body.issues?.length)
        setProblems(failure.body.issues.map((issue) => issue.message));
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm((now) => ({ ...now, [name]: event.target.value })),
  });

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
      <form onSubmit={submit}>
        <fieldset disabled={busy}>
          <label>
            Routing number <input inputMode="numeric" autoComplete="off" required {...field('routingNumber')} />
          </label>
          <label>
            Account number <input inputMode="numeric" autoComplete="off" required {...field('accountNumber')} />
          </label>
          <label>
            Account type{' '}
            <select {...field('accountType')}>
              <option value="checking">Checking</option>
              <option value="savings">Savings</option>
            </select>
          </label>
          <label>
            Account holder <input maxLength={22} required {...field('holderName')} />
          </label>
          <button type="submit">Save payout account</button>
        </fieldset>
      </form>
      {problems.length > 0 && (
        <ul role="alert" className="error">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      {error && problems.length === 0 ? <ErrorNote error={error} /> : null}
      <p aria-live="polite">{notice}</p>
    </section>
  );
}
