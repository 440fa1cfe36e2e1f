'use client';
// "Write off" on the claim page (POST /api/claims/{id}/write-off, svcpay:write, step-up): an amount in dollars,
// at most the balance, and the reason. The step-up dialog opens by itself when the route asks for it.
import { useState, type FormEvent } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { centsToDollarInput, formatDollars } from '@/components/billing/format';
import { Form } from '@/components/form';
import { Field, TextField } from '@/components/form-field';
import { ErrorNote } from '@/components/error-note';
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
  const [amount, setAmount] = useState(() => centsToDollarInput(balanceCents));
  const [reason, setReason] = useState('');
  // Each field's own problem, beside it: both are checked before anything is sent.
  const [issues, setIssues] = useState<{ amount?: string; reason?: string }>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    let amountCents: number | null = null;
    const found: typeof issues = {};
    try {
      amountCents = parseDollarsToCents(amount.replace(/[$,\s]/g, ''));
      if (amountCents <= 0 || amountCents > balanceCents)
        found.amount = `Enter an amount more than $0.00 and at most the balance, ${formatDollars(balanceCents)}.`;
    } catch {
      found.amount = 'Enter an amount in dollars, e.g. 125.00.';
    }
    if (!reason.trim()) found.reason = 'Say why the balance is written off.';
    setIssues(found);
    if (amountCents === null || found.amount || found.reason) return;
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
      setError(failure);
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
      <Form onSubmit={submit} noValidate>
        <TextField
          id="write-off-amount"
          label="Amount (dollars)"
          inputMode="decimal"
          value={amount}
          onChange={setAmount}
          issue={issues.amount}
        />
        <Field id="write-off-reason" label="Reason" issue={issues.reason}>
          {(control) => (
            <input {...control} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
          )}
        </Field>
        <p className="muted">Writing off asks you to confirm it&apos;s you.</p>
        <button type="submit" disabled={busy}>
          {busy ? 'Writing off…' : 'Write off'}
        </button>
        {error ? <ErrorNote error={error} otherwise="The write-off was not posted." /> : null}
      </Form>
    </section>
  );
}
