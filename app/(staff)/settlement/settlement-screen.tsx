'use client';
// Reads the console's pools and instructions through the API (GET /api/settlement/overview), then shows the console
// and the payout batches built from its signed instructions.
import { useApiRead } from '@/components/billing/use-api-read';
import { ErrorNote } from '@/components/error-note';
import type { SettlementOverview } from '@/lib/settlements/settlement-overview';
import { SettlementConsole } from './settlement-console';
import { PayoutBatches } from './payout-batches';

export function SettlementScreen({ canWrite }: { canWrite: boolean }) {
  const { data, error } = useApiRead<SettlementOverview>('/api/settlement/overview');
  if (error) return <ErrorNote error={error} />;
  if (!data) return <p aria-live="polite">Loading…</p>;
  return (
    <>
      <SettlementConsole pools={data.pools} instructions={data.instructions} canWrite={canWrite} />
      <PayoutBatches instructions={data.instructions} canWrite={canWrite} />
    </>
  );
}
