'use client';
// Payout batches (DECISIONS "Money out"): pick SIGNED instructions, build the NACHA batch (problems shown inline,
// one line each, as the API names them), release it through the step-up dialog (apiFetch opens it), download
// the exact file, and see the bank's confirmation and returns.
import { useState } from 'react';
import type { InstructionView } from '@/lib/settlements/instruction-view';
import type { BatchList } from '@/lib/payouts/batch-view';
import type { PayoutAccountState } from '@/lib/payouts/payout-account';
import { apiFetch } from '@/components/api-fetch';
import { ApiError } from '@/components/api-error';
import { useApiRead } from '@/components/billing/use-api-read';
import { useDateFormat } from '@/components/billing/use-date-format';
import { formatDollars } from '@/components/billing/format';
import { ErrorNote } from '@/components/error-note';
import { DataTable } from '@/components/data-table';
import { instructionsToPayOut } from '@/components/billing/instructions-to-pay-out';

// What the next batch can be while the payout account is not verified (verified: batches of instructions).
const ACCOUNT_NOTE: Record<PayoutAccountState, string | null> = {
  none: 'The clinic has no payout account yet: an admin sets it in Clinic settings.',
  needs_prenote:
    'The payout account is new: its prenote (a zero-dollar test entry) goes to the bank first, and payouts can be ' +
    'built once the bank confirms it.',
  prenote_sent: "The payout account's prenote is with the bank: payouts can be built once the bank confirms it.",
  verified: null,
};

const BATCH_STATUS: Record<string, string> = {
  created: 'Built, not released',
  released: 'Released, waiting for the bank',
  confirmed: 'Confirmed by the bank',
};

export function PayoutBatches({ instructions, canWrite }: { instructions: InstructionView[]; canWrite: boolean }) {
  const [version, setVersion] = useState(0);
  const { data, error: readError } = useApiRead<BatchList>('/api/settlement/batches', version);
  const [selected, setSelected] = useState<string[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const { date } = useDateFormat();
  const signed = instructionsToPayOut(instructions, data?.batches ?? []);
  const account = data?.payoutAccount;
  // With nothing chosen, the only batch there can be is the account's prenote, and only while it is due.
  const sendsPrenote = selected.length === 0 && account === 'needs_prenote';

  async function act(run: () => Promise<string>) {
    setBusy(true);
    setError(null);
    setProblems([]);
    setNotice('');
    try {
      setNotice(await run());
      setSelected([]);
      setVersion((v) => v + 1);
    } catch (failure) {
      if (failure instanceof ApiError && failure.body.issues?.length)
        setProblems(failure.body.issues.map((issue) => `${issue.path}: ${issue.message}`));
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  const build = () =>
    act(async () => {
      const created = await apiFetch<{ batchId: string; entryCount: number; totalCents: number }>(
        '/api/settlement/batches',
        { method: 'POST', json: { instructionIds: selected } },
      );
      return `Batch ${created.batchId} built: ${created.entryCount} entries, ${formatDollars(created.totalCents)}.`;
    });
  const release = (batchId: string) =>
    act(async () => {
      await apiFetch(`/api/settlement/batches/${batchId}/release`, { method: 'POST' });
      return `Batch ${batchId} released: upload its file to the bank.`;
    });

  return (
    <section className="card" aria-labelledby="batches-title" data-testid="payout-batches">
      <h2 id="batches-title" className="billing-title">
        Payout batches
      </h2>
      {canWrite && (
        <fieldset disabled={busy}>
          <legend>Signed instructions to pay out</legend>
          {account && ACCOUNT_NOTE[account] ? (
            <p className="muted" data-testid="payout-account-note">
              {ACCOUNT_NOTE[account]}
            </p>
          ) : null}
          {signed.length === 0 && <p className="muted">No signed instruction is waiting.</p>}
          {signed.map((i) => (
            <label key={i.instructionId} className="checkbox">
              <input
                type="checkbox"
                checked={selected.includes(i.instructionId)}
                onChange={(event) =>
                  setSelected((now) =>
                    event.target.checked ? [...now, i.instructionId] : now.filter((id) => id !== i.instructionId),
                  )
                }
              />{' '}
              {i.instructionId}: {formatDollars(i.waterfall.residualCents)} to the clinic
            </label>
          ))}
          <button
            type="button"
            onClick={build}
            disabled={selected.length === 0 && !sendsPrenote}
            data-testid="build-batch"
          >
            {sendsPrenote
              ? 'Send the payout account prenote'
              : selected.length === 0
                ? 'Build a batch'
                : `Build a batch of ${selected.length}`}
          </button>
        </fieldset>
      )}
      {problems.length > 0 && (
        <ul role="alert" className="error" data-testid="batch-problems">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      {error && problems.length === 0 ? <ErrorNote error={error} /> : null}
      <p aria-live="polite">{notice}</p>
      {readError ? <ErrorNote error={readError} /> : null}
      <DataTable
        rows={data?.batches ?? null}
        loading={null}
        empty={null}
        rowKey={(b) => b.batchId}
        rowProps={(b) => ({ 'data-testid': 'batch-row', 'data-status': b.status })}
        columns={[
          {
            header: 'Batch',
            cell: (b) => (
              <>
                {b.batchId}
                <br />
                <span className="muted">trace {b.traceNumber}</span>
              </>
            ),
          },
          {
            header: 'State',
            cell: (b) => (
              <>
                {BATCH_STATUS[b.status] ?? b.status}
                {b.confirmedCents !== null && b.confirmedCents !== b.totalCents && (
                  <span className="error"> (bank confirmed {formatDollars(b.confirmedCents)})</span>
                )}
              </>
            ),
          },
          { header: 'Effective', cell: (b) => date(b.effectiveDate) },
          {
            header: 'Total',
            // A batch of the account's prenote alone moves no money: say what its $0.00 is.
            cell: (b) =>
              b.entries.length > 0 && b.entries.every((e) => e.prenote)
                ? `${formatDollars(b.totalCents)}, the account's prenote`
                : formatDollars(b.totalCents),
          },
          {
            header: 'Returns',
            cell: (b) =>
              b.entries
                .filter((e) => e.returnCode)
                .map((e) => `${e.instructionId ?? 'prenote'} ${e.returnCode}`)
                .join(', ') || 'None',
          },
          {
            header: 'Actions',
            cell: (b) => (
              <>
                {/* The file is the bank's only once released (step-up): before that the API answers 409. */}
                {b.status !== 'created' && (
                  <a href={`/api/settlement/batches/${b.batchId}/file`} download>
                    Download file
                  </a>
                )}
                {canWrite && b.status === 'created' && (
                  <button type="button" disabled={busy} onClick={() => release(b.batchId)}>
                    Release
                  </button>
                )}
              </>
            ),
          },
        ]}
      />
    </section>
  );
}
