// /eligibility/roster: a day's appointments and their coverage, over GET /api/appointments and
// POST /api/eligibility/roster (NDJSON progress), the same routes integrators use.
import type { Metadata } from 'next';
import { RosterScreen } from './roster-screen';

export const metadata: Metadata = { title: 'Eligibility roster · Clinic Revenue Platform' };

export default function RosterPage() {
  return (
    <>
      <h1>Eligibility roster</h1>
      <p className="muted">
        Check coverage for every appointment of a day. Amounts are the patient&apos;s individual benefits as the payer
        reported them.
      </p>
      <RosterScreen />
    </>
  );
}
