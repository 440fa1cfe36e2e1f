// /remittances: the clinic's posted 835s (GET /api/remittances) and the upload of a payer's 835 file
// (POST /api/remittances, svcpay:write).
import type { Metadata } from 'next';
import { findPrincipalWith } from '@/components/billing/find-principal-with';
import { NoAccess } from '@/components/billing/no-access';
import { RemittancesScreen } from './remittances-screen';

export const metadata: Metadata = { title: 'Remittances · Clinic Revenue Platform' };

export default async function RemittancesPage() {
  const principal = await findPrincipalWith('svcpay:read');
  if (!principal) return <NoAccess title="Remittances" />;
  return (
    <>
      <h1>Remittances</h1>
      <p className="muted">
        Payers&apos; electronic remittance advice (X12 835): what each paid, cut or denied, posted to the ledger once.
      </p>
      <RemittancesScreen canUpload={principal.scopes.includes('svcpay:write')} />
    </>
  );
}
