// /claims/new: a new draft claim, checked and submitted from the editor (POST /api/claims, /scrub, /submit).
import type { Metadata } from 'next';
import { findPrincipalWith } from '@/components/billing/find-principal-with';
import { NoAccess } from '@/components/billing/no-access';
import { NewClaim } from './new-claim';

export const metadata: Metadata = { title: 'New claim · Clinic Revenue Platform' };

export default async function NewClaimPage() {
  const principal = await findPrincipalWith('claims:write');
  if (!principal) return <NoAccess title="New claim" />;
  return (
    <>
      <h1>New claim</h1>
      <p className="muted">
        The billing provider comes from the clinic&apos;s settings; the payer, subscriber and member id from the
        patient&apos;s coverage on file.
      </p>
      <NewClaim today={principal.today} />
    </>
  );
}
