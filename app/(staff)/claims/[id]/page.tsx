// /claims/{id}: one claim. A draft opens in the editor (for users who can write claims); a sent claim shows its
// summary, lines, timeline (999, 277CA, 277, payments, appeal) and the X12 documents behind it, with "Check
// status" and, for a denied or partly paid claim, "Appeal".
import type { Metadata } from 'next';
import { findPrincipalWith } from '@/components/billing/find-principal-with';
import { NoAccess } from '@/components/billing/no-access';
import { ClaimScreen } from './claim-screen';

export const metadata: Metadata = { title: 'Claim · Clinic Revenue Platform' };

export default async function ClaimPage({ params }: { params: Promise<{ id: string }> }) {
  const principal = await findPrincipalWith('claims:read');
  if (!principal) return <NoAccess title="Claim" />;
  const { id } = await params;
  return (
    <ClaimScreen
      claimId={id}
      canWrite={principal.scopes.includes('claims:write')}
      canWriteOff={principal.scopes.includes('svcpay:write')}
      today={principal.today}
    />
  );
}
