'use client';
// One settlement instruction: its waterfall in dollars and its next action, Sign for a draft and Execute (with the
// rail's reference) for a signed one, both behind a step-up.
import { useState } from 'react';
import type { InstructionView } from '@/lib/settlements/instruction-view';
import { apiFetch } from '@/components/api-fetch';
import { TextField } from '@/components/form-field';
import { useDateFormat } from '@/components/billing/use-date-format';
import { formatDollars } from '@/components/billing/format';
import { instructionStatusWords } from '@/components/billing/words';
import { ErrorNote } from '@/components/error-note';

export function InstructionCard({
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
  const [error, setError] = useState<unknown>(null);
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
      setError(failure);
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
          <TextField
            id="settle-railReference"
            label="Rail reference (ACH trace or wire reference)"
            value={railReference}
            onChange={setRailReference}
            issue={railError}
          />
          <div className="billing-actions">
            <button type="button" onClick={() => void act('execute')} disabled={busy}>
              {busy ? 'Executing…' : 'Execute instruction'}
            </button>
          </div>
        </div>
      ) : null}
      <p role="status">{notice}</p>
      {error ? <ErrorNote error={error} /> : null}
    </section>
  );
}
