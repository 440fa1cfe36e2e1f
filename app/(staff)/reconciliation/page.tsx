// /reconciliation: the nightly reconciliation's variances (GET /api/reconciliation/variances), grouped by day,
// each kind in words.
import type { Metadata } from 'next';
import { findPrincipalWith } from '@/components/billing/find-principal-with';
import { NoAccess } from '@/components/billing/no-access';
import { VariancesScreen } from './variances-screen';

export const metadata: Metadata = { title: 'Reconciliation · Clinic Revenue Platform' };

export default async function ReconciliationPage() {
  const principal = await findPrincipalWith('svcpay:read');
  if (!principal) return <NoAccess title="Reconciliation" />;
  return (
    <>
      <h1>Reconciliation</h1>
      <p className="muted">
        Each night the ledger is compared with the bank: remittances with their deposits, and the day&apos;s totals.
        What did not agree is listed here by day, newest first.
      </p>
      <VariancesScreen />
    </>
  );
}
