'use client';
// Reads the console's pools and instructions through the API (GET /api/settlement/overview), then shows the console
// and the payout batches built from its signed instructions. The instructions are held here, so one drafted or
// signed in the console is at once a choice of the batches below.
import { useState } from 'react';
import { useApiRead } from '@/components/billing/use-api-read';
import { ErrorNote } from '@/components/error-note';
import type { InstructionView } from '@/lib/settlements/instruction-view';
import type { SettlementOverview } from '@/lib/settlements/settlement-overview';
import { SettlementConsole } from './settlement-console';
import { PayoutBatches } from './payout-batches';

export function SettlementScreen({ canWrite }: { canWrite: boolean }) {
  const { data, error } = useApiRead<SettlementOverview>('/api/settlement/overview');
  if (error) return <ErrorNote error={error} />;
  if (!data) return <p aria-live="polite">Loading…</p>;
  return <SettlementWork overview={data} canWrite={canWrite} />;
}

function SettlementWork({ overview, canWrite }: { overview: SettlementOverview; canWrite: boolean }) {
  const [instructions, setInstructions] = useState(overview.instructions);
  const remember = (view: InstructionView) =>
    setInstructions((now) => [view, ...now.filter((i) => i.instructionId !== view.instructionId)]);
  return (
    <>
      <SettlementConsole pools={overview.pools} instructions={instructions} onChanged={remember} canWrite={canWrite} />
      <PayoutBatches instructions={instructions} canWrite={canWrite} />
    </>
  );
}
