// /eligibility/roster: a day's appointments and their coverage, over GET /api/appointments and
// POST /api/eligibility/roster (NDJSON progress), the same routes integrators use.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { findCurrentPrincipal } from '@/lib/http/find-current-principal';
import { RosterScreen } from './roster-screen';

export const metadata: Metadata = { title: 'Eligibility roster · Clinic Revenue Platform' };

export default async function RosterPage() {
  // "Bill this visit" only for a user who can write claims (the claim editor's page checks again).
  const principal = await findCurrentPrincipal(await headers());
  return (
    <>
      <h1>Eligibility roster</h1>
      <p className="muted">
        Check coverage for every appointment of a day. Amounts are the patient&apos;s individual benefits as the payer
        reported them.
      </p>
      <RosterScreen canBill={principal?.scopes.includes('claims:write') ?? false} />
    </>
  );
}
