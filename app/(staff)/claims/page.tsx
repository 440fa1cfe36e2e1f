// /claims: the clinic's claims work queue over GET /api/claims (newest first, at most 100), filtered by state.
import type { Metadata } from 'next';
import Link from 'next/link';
import { findPrincipalWith } from '@/components/billing/find-principal-with';
import { NoAccess } from '@/components/billing/no-access';
import { ClaimsQueue } from './claims-queue';

export const metadata: Metadata = { title: 'Claims · Clinic Revenue Platform' };

export default async function ClaimsPage({ searchParams }: { searchParams: Promise<{ status?: string | string[] }> }) {
  const { status } = await searchParams;
  const initialStatuses = (Array.isArray(status) ? status : [status ?? ''])
    .flatMap((s) => s.split(','))
    .filter(Boolean);
  const principal = await findPrincipalWith('claims:read');
  if (!principal) return <NoAccess title="Claims" />;
  return (
    <>
      <h1>Claims</h1>
      <p className="muted">The newest 100 claims of {principal.clinicName}, newest first.</p>
      {principal.scopes.includes('claims:write') ? (
        <p>
          <Link href="/claims/new" className="button-link">
            New claim
          </Link>
        </p>
      ) : null}
      <ClaimsQueue initialStatuses={initialStatuses} />
    </>
  );
}
