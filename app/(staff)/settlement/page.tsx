// /settlement: the settlement console. Pools, then an instruction's life: create a DRAFT with its waterfall,
// sign it (step-up), execute it (step-up), all over /api/settlement.
import type { Metadata } from 'next';
import { findPrincipalWith } from '@/components/billing/find-principal-with';
import { NoAccess } from '@/components/billing/no-access';
import { SettlementScreen } from './settlement-screen';

export const metadata: Metadata = { title: 'Settlement · Clinic Revenue Platform' };

export default async function SettlementPage() {
  const principal = await findPrincipalWith('svcpay:read');
  if (!principal) return <NoAccess title="Settlement" />;
  return (
    <>
      <h1>Settlement</h1>
      <p className="muted">
        Advances paid to the clinic from a settlement pool ahead of claim payments. An instruction is drafted, signed
        and then executed; signing and executing each ask you to confirm it&apos;s you.
      </p>
      <SettlementScreen canWrite={principal.scopes.includes('svcpay:write')} />
    </>
  );
}
