// /bills: the clinic's patient bills (GET /api/bills) with their payments; a bill a remittance raised for the
// patient's responsibility names its claim.
import type { Metadata } from 'next';
import { findPrincipalWith } from '@/components/billing/find-principal-with';
import { NoAccess } from '@/components/billing/no-access';
import { BillsScreen } from './bills-screen';

export const metadata: Metadata = { title: 'Patient bills · Clinic Revenue Platform' };

export default async function BillsPage() {
  const principal = await findPrincipalWith('svcpay:read');
  if (!principal) return <NoAccess title="Patient bills" />;
  return (
    <>
      <h1>Patient bills</h1>
      <p className="muted">What patients owe, newest first: visit bills and the share a payer left to the patient.</p>
      <BillsScreen />
    </>
  );
}
