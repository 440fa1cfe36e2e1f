// /remittances/{id}: one posted 835, each claim's payment and adjustments in dollars with the reason codes in words.
import type { Metadata } from 'next';
import { findPrincipalWith } from '@/components/billing/find-principal-with';
import { NoAccess } from '@/components/billing/no-access';
import { RemittanceScreen } from './remittance-screen';

export const metadata: Metadata = { title: 'Remittance · Clinic Revenue Platform' };

export default async function RemittancePage({ params }: { params: Promise<{ id: string }> }) {
  const principal = await findPrincipalWith('svcpay:read');
  if (!principal) return <NoAccess title="Remittance" />;
  const { id } = await params;
  return <RemittanceScreen remittanceId={id} />;
}
