'use client';
// "Check status": a 276 to the payer through the clearinghouse (GET /status?refresh=true); the answer joins the
// claim's timeline.
import { useState } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { claimStatusWords } from '@/components/billing/words';
import { ErrorNote } from '@/components/error-note';

export function StatusCheck({ path, onDone }: { path: string; onDone: (message: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function check() {
    setBusy(true);
    setError(null);
    try {
      const answer = await apiFetch<{ status?: string; correlationId?: string }>(`${path}/status?refresh=true`);
      onDone(
        `Asked the payer for this claim's status${answer.status ? `: ${claimStatusWords(answer.status)}` : ''}.` +
          ' The answer is on the timeline.',
      );
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="card" aria-labelledby="claim-status-title">
      <h2 id="claim-status-title">Status with the payer</h2>
      <p className="muted">Sends a status request (276) to the payer through the clearinghouse.</p>
      <button type="button" onClick={() => void check()} disabled={busy}>
        {busy ? 'Asking the payer…' : 'Check status'}
      </button>
      {error ? <ErrorNote error={error} otherwise="The payer could not be asked." /> : null}
    </section>
  );
}
