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
import { DataTable } from '@/components/data-table';
import { ErrorNote } from '@/components/error-note';
import { SummaryItem, SummaryList } from '@/components/summary-list';

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
      <SummaryList>
        <SummaryItem term="State" testId="instruction-status">
          {instructionStatusWords(i.status)}
        </SummaryItem>
        <SummaryItem term="Pool">
          {i.poolId} ({formatDollars(i.availableCents)} available)
        </SummaryItem>
        <SummaryItem term="Fee / reserve">
          {(i.feeBps / 100).toFixed(2)} % / {(i.reserveBps / 100).toFixed(2)} %
        </SummaryItem>
        {i.encounterId ? <SummaryItem term="Encounter">{i.encounterId}</SummaryItem> : null}
        <SummaryItem term="Expires">{fmt.dateTime(i.expiresAt)}</SummaryItem>
        {i.signedAt ? <SummaryItem term="Signed">{fmt.dateTime(i.signedAt)}</SummaryItem> : null}
        {i.disbursedAt ? (
          <SummaryItem term="Disbursed">
            {fmt.dateTime(i.disbursedAt)} (rail reference {i.railReference})
          </SummaryItem>
        ) : null}
      </SummaryList>
      <h3>Waterfall</h3>
      <DataTable
        rows={rows}
        label="Waterfall"
        empty={null}
        rowKey={([part]) => part}
        columns={[
          { header: 'Part', cell: ([part]) => part },
          { header: 'Amount', amount: true, cell: ([, cents]) => formatDollars(cents) },
        ]}
      />
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
