// /claims/new: a new draft claim, checked and submitted from the editor (POST /api/claims, /scrub, /submit).
// `?appointmentId=` ("Bill this visit") starts it filled from the clinic's appointment: patient, date of service,
// place of service and rendering provider (lib/claims/claim-prefill.ts), read here on the server so billing needs no
// patients:read.
import type { Metadata } from 'next';
import { findPrincipalWith } from '@/components/billing/find-principal-with';
import { NoAccess } from '@/components/billing/no-access';
import { claimPrefillFromAppointment } from '@/lib/claims/claim-prefill';
import { getDeps } from '@/lib/deps';
import { NewClaim } from './new-claim';

export const metadata: Metadata = { title: 'New claim · Clinic Revenue Platform' };

export default async function NewClaimPage({
  searchParams,
}: {
  searchParams: Promise<{ appointmentId?: string | string[] }>;
}) {
  const principal = await findPrincipalWith('claims:write');
  if (!principal) return <NoAccess title="New claim" />;
  const { appointmentId } = await searchParams;
  const prefill =
    typeof appointmentId === 'string' && appointmentId
      ? await claimPrefillFromAppointment((await getDeps()).db, {
          clinicId: principal.clinicId,
          timeZone: principal.clinicTimeZone,
          appointmentId: appointmentId.slice(0, 200),
        })
      : null;
  return (
    <>
      <h1>New claim</h1>
      <p className="muted">
        The billing provider comes from the clinic&apos;s settings; the payer, subscriber and member id from the
        patient&apos;s coverage on file.
      </p>
      {typeof appointmentId === 'string' && appointmentId && !prefill ? (
        <p role="alert" className="error">
          That appointment is not on this clinic&apos;s schedule; choose the patient below.
        </p>
      ) : null}
      {prefill ? (
        <p className="muted" data-testid="claim-from-visit">
          Filled from the visit of {prefill.patient.name} on this date of service; add the diagnoses and services.
        </p>
      ) : null}
      <NewClaim today={principal.today} prefill={prefill ?? undefined} />
    </>
  );
}
