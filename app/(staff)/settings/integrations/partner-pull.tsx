'use client';
// A pull from the partner API: one day or a range of at most 31 days, its result as counts.
import { useState, type FormEvent } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { ErrorNote } from '@/components/error-note';
import type { PullResult } from './connection';
import { PullCounts } from './pull-counts';
import { Form } from '@/components/form';

export function PartnerPull() {
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<PullResult | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const [date, from, to] = ['date', 'from', 'to'].map((k) => String(data.get(k) ?? '').trim());
    setBusy(true);
    try {
      setResult(
        await apiFetch<PullResult>('/api/emr-sync/partner/pull', {
          method: 'POST',
          json: date ? { date } : { from, to },
        }),
      );
      setError(null);
    } catch (failure) {
      setResult(null);
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="card" aria-labelledby="partner-heading">
      <h2 id="partner-heading">Partner API pull</h2>
      <p className="muted">One day, or a range of at most 31 days, in the clinic&apos;s time zone.</p>
      <Form onSubmit={submit}>
        <div className="row">
          <div>
            <label htmlFor="partner-date">Day</label>
            <input id="partner-date" name="date" type="date" />
          </div>
          <div>
            <label htmlFor="partner-from">or from</label>
            <input id="partner-from" name="from" type="date" />
          </div>
          <div>
            <label htmlFor="partner-to">to</label>
            <input id="partner-to" name="to" type="date" />
          </div>
        </div>
        {error ? <ErrorNote error={error} /> : null}
        <p>
          <button type="submit" disabled={busy}>
            {busy ? 'Pulling…' : 'Pull from partner'}
          </button>
        </p>
      </Form>
      {result && <PullCounts result={result} label="Partner pull result" />}
    </section>
  );
}
