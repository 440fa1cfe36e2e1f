// /dashboard: the revenue dashboard over GET /api/dashboard/* (claims:read and svcpay:read): A/R aging, collections,
// denial and clean-claim rates, days in A/R, each as a chart with its numbers and a CSV download.
import type { Metadata } from 'next';
import { findPrincipalWith } from '@/components/billing/find-principal-with';
import { NoAccess } from '@/components/billing/no-access';
import { DashboardScreen } from './dashboard-screen';

export const metadata: Metadata = { title: 'Revenue dashboard · Clinic Revenue Platform' };

export default async function DashboardPage() {
  const principal = await findPrincipalWith('claims:read');
  if (!principal || !principal.scopes.includes('svcpay:read')) return <NoAccess title="Revenue dashboard" />;
  return (
    <>
      <h1>Revenue dashboard</h1>
      <p className="muted">Computed from the ledger and claims in the clinic’s time zone; the last 90 days.</p>
      <DashboardScreen />
    </>
  );
}
