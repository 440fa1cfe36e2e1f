// /denials: the denial work queue (GET /api/denials): denied and partly paid claims with the payer's reasons in
// words, the next action (?nextAction= opens the queue filtered, as the home page's counts link), and the way to
// the claim's appeal.
import type { Metadata } from 'next';
import { findPrincipalWith } from '@/components/billing/find-principal-with';
import { NoAccess } from '@/components/billing/no-access';
import { NEXT_ACTION_WORDS } from '@/components/billing/words';
import { DenialsScreen } from './denials-screen';

export const metadata: Metadata = { title: 'Denials · Clinic Revenue Platform' };

export default async function DenialsPage({
  searchParams,
}: {
  searchParams: Promise<{ nextAction?: string | string[] }>;
}) {
  const { nextAction } = await searchParams;
  const initialAction = typeof nextAction === 'string' && nextAction in NEXT_ACTION_WORDS ? nextAction : '';
  const principal = await findPrincipalWith('claims:read');
  if (!principal) return <NoAccess title="Denials" />;
  return (
    <>
      <h1>Denials</h1>
      <p className="muted">Claims the payer denied or paid only in part, newest first.</p>
      <DenialsScreen canAppeal={principal.scopes.includes('claims:write')} initialAction={initialAction} />
    </>
  );
}
