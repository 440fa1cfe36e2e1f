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
import type { PoolSummary } from '@/lib/settlements/settlement-overview';
import { DraftForm } from './instruction-draft-form';
import { InstructionCard } from './instruction-card';

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
