'use client';
// The settlement console: the pools, a form that drafts an instruction (POST /api/settlement/instructions), and
// the chosen instruction with its waterfall in dollars and the next action: Sign (POST …/sign) for a draft,
// Execute (POST /api/settlement/console/{id}/execute, with the rail's reference) for a signed one. Both are
// step-up gated: apiFetch opens the confirmation dialog and retries.
import { useState } from 'react';
import type { InstructionView } from '@/lib/settlements/instruction-view';
import { useDateFormat } from '@/components/billing/use-date-format';
import { formatDollars } from '@/components/billing/format';
import { instructionStatusWords } from '@/components/billing/words';
import { DataTable } from '@/components/data-table';
import type { PoolSummary } from '@/lib/settlements/settlement-overview';
import { DraftForm } from './instruction-draft-form';
import { InstructionCard } from './instruction-card';

export function SettlementConsole({
  pools,
  instructions,
  onChanged,
  canWrite,
}: {
  pools: PoolSummary[];
  /** Newest first; the screen holds them and takes each one drafted or moved here through `onChanged`. */
  instructions: InstructionView[];
  onChanged: (view: InstructionView) => void;
  canWrite: boolean;
}) {
  const fmt = useDateFormat();
  const [selectedId, setSelectedId] = useState<string | null>(instructions[0]?.instructionId ?? null);
  const selected = instructions.find((i) => i.instructionId === selectedId) ?? null;

  function remember(view: InstructionView) {
    onChanged(view);
    setSelectedId(view.instructionId);
  }

  return (
    <>
      <section className="card" aria-labelledby="pools-title">
        <h2 id="pools-title">Pools</h2>
        <DataTable
          rows={pools}
          label="Pools"
          empty="The clinic has no settlement pool."
          rowKey={(pool) => pool.poolId}
          rowProps={(pool) => ({ 'data-testid': `pool-${pool.poolId}` })}
          columns={[
            { header: 'Pool', cell: (pool) => pool.poolId },
            { header: 'State', cell: (pool) => (pool.status === 'active' ? 'Active' : pool.status) },
            {
              header: 'Available',
              amount: true,
              cell: (pool) =>
                formatDollars(
                  // The newest read of the pool: an instruction shown later carries a fresher figure.
                  instructions.find((i) => i.poolId === pool.poolId)?.availableCents ?? pool.availableCents,
                ),
            },
          ]}
        />
      </section>

      {canWrite && pools.length ? <DraftForm pools={pools} onCreated={remember} /> : null}

      {selected ? <InstructionCard instruction={selected} canWrite={canWrite} onChanged={remember} /> : null}

      {instructions.length ? (
        <section className="card" aria-labelledby="instructions-title">
          <h2 id="instructions-title">Recent instructions</h2>
          <DataTable
            rows={instructions}
            label="Recent instructions"
            empty={null}
            rowKey={(i) => i.instructionId}
            columns={[
              { header: 'Instruction', cell: (i) => <span className="record-id">{i.instructionId}</span> },
              { header: 'State', cell: (i) => instructionStatusWords(i.status) },
              { header: 'Advance', amount: true, cell: (i) => formatDollars(i.advanceAmountCents) },
              { header: 'Created', cell: (i) => fmt.dateTime(i.createdAt) },
              {
                header: <span className="muted">Action</span>,
                label: 'Action',
                cell: (i) => (
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => setSelectedId(i.instructionId)}
                    aria-pressed={i.instructionId === selectedId}
                    aria-label={`Show ${i.instructionId}`}
                  >
                    Show
                  </button>
                ),
              },
            ]}
          />
        </section>
      ) : null}
    </>
  );
}
