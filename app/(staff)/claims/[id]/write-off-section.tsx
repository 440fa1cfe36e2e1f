'use client';
// "Write off" on the claim page (POST /api/claims/{id}/write-off, svcpay:write, step-up): an amount in dollars,
// at most the balance, and the reason. The step-up dialog opens by itself when the route asks for it.
import { useState, type FormEvent } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { describeApiError } from '@/components/describe-api-error';
import { isStepUpCancelled } from '@/components/step-up-prompt';
import { formatDollars } from '@/components/billing/format';
import { parseDollarsToCents } from '@/lib/money/dollars';

export function WriteOffSection({
  path,
  balanceCents,
  onDone,
}: {
  path: string;
  balanceCents: number;
  onDone: (message: string) => void;
}) {
  const [amount, setAmount] = useState(() => (balanceCents / 100).toFixed(2));
  const [reason, setReason] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    let amountCents: number;
    try {
      amountCents = parseDollarsToCents(amount.replace(/[$,\s]/g, ''));
    } catch {
      setFieldError('Enter an amount in dollars, e.g. 125.00.');
      return;
    }
    if (amountCents <= 0 || amountCents > balanceCents) {
      setFieldError(`Enter an amount more than $0.00 and at most the balance, ${formatDollars(balanceCents)}.`);
      return;
    }
    if (!reason.trim()) {
      setFieldError('Say why the balance is written off.');
      return;
    }
    setFieldError(null);
    setBusy(true);
    try {
      await apiFetch(`${path}/write-off`, {
        method: 'POST',
        json: { amountCents, reason: reason.trim() },
        stepUpDescription: `Write off ${formatDollars(amountCents)}`,
      });
      setReason('');
      onDone(`Wrote off ${formatDollars(amountCents)}.`);
    } catch (failure) {
      if (!isStepUpCancelled(failure))
        setError(describeApiError(failure, { withReference: true, otherwise: 'The write-off was not posted.' }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" id="write-off" aria-labelledby="claim-write-off-title">
      <h2 id="claim-write-off-title">Write off</h2>
      <p className="muted">
        Balance: <span data-testid="write-off-balance">{formatDollars(balanceCents)}</span>. A write-off posts to the
        ledger and closes the claim when nothing is left.
      </p>
      <form onSubmit={submit} noValidate>
        <label htmlFor="write-off-amount">Amount (dollars)</label>
        <input
          id="write-off-amount"
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          aria-invalid={fieldError ? true : undefined}
        />
        <label htmlFor="write-off-reason">Reason</label>
        <input
          id="write-off-reason"
          value={reason}
          maxLength={500}
          onChange={(e) => setReason(e.target.value)}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? 'write-off-error' : undefined}
        />
        {fieldError ? (
          <div id="write-off-error" className="error">
            {fieldError}
          </div>
        ) : null}
        <p className="muted">Writing off asks you to confirm it&apos;s you.</p>
        <button type="submit" disabled={busy}>
          {busy ? 'Writing off…' : 'Write off'}
        </button>
        {error ? (
          <p role="alert" className="error">
            {error}
          </p>
        ) : null}
      </form>
    </section>
  );
}
