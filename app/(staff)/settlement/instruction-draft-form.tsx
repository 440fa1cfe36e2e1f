'use client';
// The form that drafts a settlement instruction (POST /api/settlement/instructions): the pool, the advance in dollars,
// the platform fee and the reserve in percent, an optional encounter; each field's problem next to it.
import { useState, type FormEvent } from 'react';
import type { InstructionView } from '@/lib/settlements/instruction-view';
import { apiFetch } from '@/components/api-fetch';
import { ApiError } from '@/components/api-error';
import { describeApiError } from '@/components/describe-api-error';
import { formatDollars, parseDollarInput } from '@/components/billing/format';
import type { PoolSummary } from '@/lib/settlements/settlement-overview';

type Issues = Record<string, string>;

/** "2.5" percent → 250 basis points, exactly: a percent with two places is a whole number of hundredths. */
function percentToBps(text: string): number | null {
  const bps = parseDollarInput(text.replace(/%$/, ''));
  return bps !== null && bps <= 10_000 ? bps : null;
}

export function DraftForm({ pools, onCreated }: { pools: PoolSummary[]; onCreated: (view: InstructionView) => void }) {
  const [poolId, setPoolId] = useState(pools.find((p) => p.status === 'active')?.poolId ?? pools[0]!.poolId);
  const [advance, setAdvance] = useState('');
  const [fee, setFee] = useState('2.00');
  const [reserve, setReserve] = useState('5.00');
  const [encounterId, setEncounterId] = useState('');
  const [issues, setIssues] = useState<Issues>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const found: Issues = {};
    const advanceAmountCents = parseDollarInput(advance);
    if (advanceAmountCents === null || advanceAmountCents <= 0)
      found.advanceAmountCents = 'Enter the advance in dollars, such as 2500.00.';
    const feeBps = percentToBps(fee);
    if (feeBps === null) found.feeBps = 'Enter the fee as a percent from 0 to 100, such as 2.5.';
    const reserveBps = percentToBps(reserve);
    if (reserveBps === null) found.reserveBps = 'Enter the reserve as a percent from 0 to 100, such as 5.';
    if (feeBps !== null && reserveBps !== null && feeBps + reserveBps > 10_000)
      found.reserveBps = 'The fee and the reserve together cannot be more than 100 percent.';
    setIssues(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const view = await apiFetch<InstructionView>('/api/settlement/instructions', {
        method: 'POST',
        json: {
          poolId,
          advanceAmountCents,
          feeBps,
          reserveBps,
          ...(encounterId.trim() ? { encounterId: encounterId.trim() } : {}),
        },
      });
      setAdvance('');
      setEncounterId('');
      onCreated(view);
    } catch (failure) {
      if (failure instanceof ApiError && failure.body.issues?.length) {
        setIssues(
          Object.fromEntries(failure.body.issues.map((i) => [i.path.replace(/^body\./, ''), i.message] as const)),
        );
      }
      setError(describeApiError(failure, { withReference: true }));
    } finally {
      setBusy(false);
    }
  }

  const field = (name: string) =>
    issues[name] ? { 'aria-invalid': true as const, 'aria-describedby': `settle-${name}-error` } : {};
  const errorOf = (name: string) =>
    issues[name] ? (
      <div id={`settle-${name}-error`} className="error">
        {issues[name]}
      </div>
    ) : null;

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="draft-title">
      <h2 id="draft-title">Draft an instruction</h2>
      <div className="billing-grid">
        <div>
          <label htmlFor="settle-poolId">Pool</label>
          <select id="settle-poolId" value={poolId} onChange={(e) => setPoolId(e.target.value)}>
            {pools.map((p) => (
              <option key={p.poolId} value={p.poolId}>
                {p.poolId} ({formatDollars(p.availableCents)} available)
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="settle-advanceAmountCents">Advance (dollars)</label>
          <input
            id="settle-advanceAmountCents"
            inputMode="decimal"
            value={advance}
            onChange={(e) => setAdvance(e.target.value)}
            placeholder="2500.00"
            {...field('advanceAmountCents')}
          />
          {errorOf('advanceAmountCents')}
        </div>
        <div>
          <label htmlFor="settle-feeBps">Platform fee (percent)</label>
          <input
            id="settle-feeBps"
            inputMode="decimal"
            value={fee}
            onChange={(e) => setFee(e.target.value)}
            {...field('feeBps')}
          />
          {errorOf('feeBps')}
        </div>
        <div>
          <label htmlFor="settle-reserveBps">Reserve held back (percent)</label>
          <input
            id="settle-reserveBps"
            inputMode="decimal"
            value={reserve}
            onChange={(e) => setReserve(e.target.value)}
            {...field('reserveBps')}
          />
          {errorOf('reserveBps')}
        </div>
        <div>
          <label htmlFor="settle-encounterId">Encounter id (optional)</label>
          <input
            id="settle-encounterId"
            value={encounterId}
            onChange={(e) => setEncounterId(e.target.value)}
            {...field('encounterId')}
          />
          {errorOf('encounterId')}
        </div>
      </div>
      <div className="billing-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Drafting…' : 'Draft instruction'}
        </button>
      </div>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
