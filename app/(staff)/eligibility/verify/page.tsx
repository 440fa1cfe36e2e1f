// /eligibility/verify: one patient's real-time check with the evidence behind each value, over
// POST /api/eligibility/verify (explain: true), filled in from one of today's appointments or a patient's record
// (?patientId=, as the patient page links here).
import type { Metadata } from 'next';
import { VerifyScreen } from './verify-screen';

export const metadata: Metadata = { title: 'Verify eligibility · Clinic Revenue Platform' };

export default async function VerifyPage({
  searchParams,
}: {
  searchParams: Promise<{ patientId?: string | string[] }>;
}) {
  const { patientId } = await searchParams;
  return (
    <>
      <h1>Verify one patient</h1>
      <p className="muted">
        A real-time check with the payer. Each value shows the line of the payer&apos;s answer it came from.
      </p>
      <VerifyScreen initialPatientId={typeof patientId === 'string' ? patientId : undefined} />
    </>
  );
}
