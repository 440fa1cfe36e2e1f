'use client';
// The settlement console: the pools, a form that drafts an instruction (POST /api/settlement/instructions), and
// the chosen instruction with its waterfall in dollars and the next action: Sign (POST …/sign) for a draft,
// Execute (POST /api/settlement/console/{id}/execute, with the rail's reference) for a signed one. Both are
// step-up gated: apiFetch opens the confirmation dialog and retries.
import { useState, type FormEvent } from 'react';
import type { InstructionView } from '@/lib/settlements/instruction-view';
import { apiFetch } from '@/components/api-fetch';
import { ApiError } from '@/components/api-error';
import { describeApiError } from '@/components/describe-api-error';
import { useDateFormat } from '@/components/billing/use-date-format';
import { formatDollars, parseDollarInput } from '@/components/billing/format';
import { instructionStatusWords } from '@/components/billing/words';
import type { PoolSummary } from '@/lib/settlements/settlement-overview';

type Issues = Record<string, string>;

export function SettlementConsole({
  pools,
  instructions: initial,
  canWrite,
}: {
  pools: PoolSummary[];
  instructions: InstructionView[];
  canWrite: boolean;
}) {
  const fmt = useDateFormat();
  const [instructions, setInstructions] = useState(initial);
  const [selectedId, setSelectedId] = useState<string | null>(initial[0]?.instructionId ?? null);
  const selected = instructions.find((i) => i.instructionId === selectedId) ?? null;

  function remember(view: InstructionView) {
    setInstructions((now) => [view, ...now.filter((i) => i.instructionId !== view.instructionId)]);
    setSelectedId(view.instructionId);
  }

  return (
    <>
      <section className="card" aria-labelledby="pools-title">
        <h2 id="pools-title">Pools</h2>
        {pools.length ? (
          <table className="stack-table">
            <thead>
              <tr>
                <th scope="col">Pool</th>
                <th scope="col">State</th>
                <th scope="col" className="billing-amount">
                  Available
                </th>
              </tr>
            </thead>
            <tbody>
              {pools.map((pool) => (
                <tr key={pool.poolId} data-testid={`pool-${pool.poolId}`}>
                  <td data-label="Pool">{pool.poolId}</td>
                  <td data-label="State">{pool.status === 'active' ? 'Active' : pool.status}</td>
                  <td data-label="Available" className="billing-amount">
                    {formatDollars(
                      // The newest read of the pool: an instruction shown later carries a fresher figure.
                      instructions.find((i) => i.poolId === pool.poolId)?.availableCents ?? pool.availableCents,
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>The clinic has no settlement pool.</p>
        )}
      </section>

      {canWrite && pools.length ? <DraftForm pools={pools} onCreated={remember} /> : null}

      {selected ? <InstructionCard instruction={selected} canWrite={canWrite} onChanged={remember} /> : null}

      {instructions.length ? (
        <section className="card" aria-labelledby="instructions-title">
          <h2 id="instructions-title">Recent instructions</h2>
          <table className="stack-table">
            <thead>
              <tr>
                <th scope="col">Instruction</th>
                <th scope="col">State</th>
                <th scope="col" className="billing-amount">
                  Advance
                </th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="muted">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {instructions.map((i) => (
                <tr key={i.instructionId}>
                  <td data-label="Instruction">{i.instructionId}</td>
                  <td data-label="State">{instructionStatusWords(i.status)}</td>
                  <td data-label="Advance" className="billing-amount">
                    {formatDollars(i.advanceAmountCents)}
                  </td>
                  <td data-label="Created">{fmt.dateTime(i.createdAt)}</td>
                  <td data-label="Action">
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => setSelectedId(i.instructionId)}
                      aria-pressed={i.instructionId === selectedId}
                    >
                      Show {i.instructionId}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </>
  );
}

/** "2.5" percent → 250 basis points, exactly: a percent with two places is a whole number of hundredths. */
function percentToBps(text: string): number | null {
  const bps = parseDollarInput(text.replace(/%$/, ''));
  return bps !== null && bps <= 10_000 ? bps : null;
}

function DraftForm({ pools, onCreated }: { pools: PoolSummary[]; onCreated: (view: InstructionView) => void }) {
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

function InstructionCard({
  instruction: i,
  canWrite,
  onChanged,
}: {
  instruction: InstructionView;
  canWrite: boolean;
  onChanged: (view: InstructionView) => void;
}) {
  const fmt = useDateFormat();
  const [railReference, setRailReference] = useState('');
  const [railError, setRailError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const path = encodeURIComponent(i.instructionId);

  async function act(action: 'sign' | 'execute') {
    setError(null);
    setNotice('');
    if (action === 'execute' && !railReference.trim()) {
      setRailError("Enter the payment rail's reference for this transfer (the ACH trace or wire reference).");
      return;
    }
    setRailError(null);
    setBusy(true);
    try {
      const view =
        action === 'sign'
          ? await apiFetch<InstructionView>(`/api/settlement/instructions/${path}/sign`, { method: 'POST' })
          : await apiFetch<InstructionView>(`/api/settlement/console/${path}/execute`, {
              method: 'POST',
              json: { railReference: railReference.trim() },
            });
      onChanged(view);
      setNotice(action === 'sign' ? 'Instruction signed.' : 'Instruction executed: the advance was disbursed.');
    } catch (failure) {
      setError(describeApiError(failure, { withReference: true }));
    } finally {
      setBusy(false);
    }
  }

  const rows: [string, number][] = [
    ['Advance from the pool', i.waterfall.poolCents],
    ['Platform fee', i.waterfall.feeCents],
    ['Reserve held back', i.waterfall.reserveCents],
    ['Paid to the clinic', i.waterfall.residualCents],
  ];

  return (
    <section
      className="card"
      aria-labelledby="instruction-title"
      data-testid="instruction"
      data-status={i.status}
      data-instruction={i.instructionId}
    >
      <h2 id="instruction-title" className="billing-title">
        Instruction {i.instructionId}
      </h2>
      <dl className="billing-summary">
        <div>
          <dt>State</dt>
          <dd data-testid="instruction-status">{instructionStatusWords(i.status)}</dd>
        </div>
        <div>
          <dt>Pool</dt>
          <dd>
            {i.poolId} ({formatDollars(i.availableCents)} available)
          </dd>
        </div>
        <div>
          <dt>Fee / reserve</dt>
          <dd>
            {(i.feeBps / 100).toFixed(2)} % / {(i.reserveBps / 100).toFixed(2)} %
          </dd>
        </div>
        {i.encounterId ? (
          <div>
            <dt>Encounter</dt>
            <dd>{i.encounterId}</dd>
          </div>
        ) : null}
        <div>
          <dt>Expires</dt>
          <dd>{fmt.dateTime(i.expiresAt)}</dd>
        </div>
        {i.signedAt ? (
          <div>
            <dt>Signed</dt>
            <dd>{fmt.dateTime(i.signedAt)}</dd>
          </div>
        ) : null}
        {i.disbursedAt ? (
          <div>
            <dt>Disbursed</dt>
            <dd>
              {fmt.dateTime(i.disbursedAt)} (rail reference {i.railReference})
            </dd>
          </div>
        ) : null}
      </dl>
      <table className="stack-table" data-testid="waterfall">
        <caption style={{ textAlign: 'left', fontWeight: 600 }}>Waterfall</caption>
        <thead>
          <tr>
            <th scope="col">Part</th>
            <th scope="col" className="billing-amount">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, cents]) => (
            <tr key={label}>
              <td data-label="Part">{label}</td>
              <td data-label="Amount" className="billing-amount">
                {formatDollars(cents)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {canWrite && i.status === 'DRAFT' ? (
        <div className="billing-actions">
          <button type="button" onClick={() => void act('sign')} disabled={busy}>
            {busy ? 'Signing…' : 'Sign instruction'}
          </button>
        </div>
      ) : null}
      {canWrite && i.status === 'SIGNED' ? (
        <div>
          <label htmlFor="settle-railReference">Rail reference (ACH trace or wire reference)</label>
          <input
            id="settle-railReference"
            value={railReference}
            onChange={(e) => setRailReference(e.target.value)}
            aria-invalid={railError ? true : undefined}
            aria-describedby={railError ? 'settle-railReference-error' : undefined}
          />
          {railError ? (
            <div id="settle-railReference-error" className="error">
              {railError}
            </div>
          ) : null}
          <div className="billing-actions">
            <button type="button" onClick={() => void act('execute')} disabled={busy}>
              {busy ? 'Executing…' : 'Execute instruction'}
            </button>
          </div>
        </div>
      ) : null}
      <p role="status">{notice}</p>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
