// /eligibility/verify: one patient's real-time check with the evidence behind each value, over
// POST /api/eligibility/verify (explain: true), prefilled from one of the day's appointments.
import type { Metadata } from 'next';
import { VerifyScreen } from './verify-screen';

export const metadata: Metadata = { title: 'Verify eligibility · Clinic Revenue Platform' };

export default function VerifyPage() {
  return (
    <>
      <h1>Verify one patient</h1>
      <p className="muted">
        A real-time check with the payer. Each value shows the line of the payer&apos;s answer it came from.
      </p>
      <VerifyScreen />
    </>
  );
}
