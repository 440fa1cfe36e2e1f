'use client';
// The form that drafts a settlement instruction (POST /api/settlement/instructions): the pool, the advance in dollars,
// the platform fee and the reserve in percent, an optional encounter; each field's problem next to it.
import { useState, type FormEvent } from 'react';
import { Form } from '@/components/form';
import type { InstructionView } from '@/lib/settlements/instruction-view';
import { apiFetch } from '@/components/api-fetch';
import { ApiError } from '@/components/api-error';
import { formatDollars, parseDollarInput } from '@/components/billing/format';
import { TextField } from '@/components/form-field';
import { ErrorNote } from '@/components/error-note';
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
  const [error, setError] = useState<unknown>(null);
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
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form className="card" onSubmit={submit} noValidate aria-labelledby="draft-title">
      <h2 id="draft-title">Draft an instruction</h2>
      <div className="billing-grid">
        {/* A row of its own: in a quarter of the row the menu cut its pool's "available" amount. */}
        <div className="whole-row">
          <label htmlFor="settle-poolId">Pool</label>
          <select id="settle-poolId" value={poolId} onChange={(e) => setPoolId(e.target.value)}>
            {pools.map((p) => (
              <option key={p.poolId} value={p.poolId}>
                {p.poolId} ({formatDollars(p.availableCents)} available)
              </option>
            ))}
          </select>
        </div>
        <TextField
          id="settle-advanceAmountCents"
          label="Advance (dollars)"
          inputMode="decimal"
          placeholder="2500.00"
          value={advance}
          onChange={setAdvance}
          issue={issues.advanceAmountCents}
        />
        <TextField
          id="settle-feeBps"
          label="Platform fee (percent)"
          inputMode="decimal"
          value={fee}
          onChange={setFee}
          issue={issues.feeBps}
        />
        <TextField
          id="settle-reserveBps"
          label="Reserve held back (percent)"
          inputMode="decimal"
          value={reserve}
          onChange={setReserve}
          issue={issues.reserveBps}
        />
        <TextField
          id="settle-encounterId"
          label="Encounter id (optional)"
          value={encounterId}
          onChange={setEncounterId}
          issue={issues.encounterId}
        />
      </div>
      <div className="billing-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Drafting…' : 'Draft instruction'}
        </button>
      </div>
      {error ? <ErrorNote error={error} /> : null}
    </Form>
  );
}
