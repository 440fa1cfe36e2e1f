// /settings/clinic: the clinic's time zone and billing provider (GET and PATCH /api/clinic) and its payout account
// (GET and PUT /api/clinic/payout-account), for users:admin.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { findCurrentPrincipal } from '@/lib/http/find-current-principal';
import { ClinicSettingsForm } from './clinic-settings-form';
import { PayoutAccountForm } from './payout-account-form';

export const metadata: Metadata = { title: 'Clinic settings · Clinic Revenue Platform' };

export default async function ClinicSettingsPage() {
  const principal = await findCurrentPrincipal(await headers());
  const isAdmin = principal?.scopes.includes('users:admin') ?? false;
  return (
    <>
      <h1>Clinic settings</h1>
      {isAdmin ? (
        <>
          <p className="muted">
            The time zone decides the clinic&apos;s &quot;today&quot; on every screen and the default date of service.
            The billing provider goes on every claim.
          </p>
          <ClinicSettingsForm />
          <PayoutAccountForm />
        </>
      ) : (
        <p role="alert" className="error">
          Your role can&apos;t do this; ask your clinic admin.
        </p>
      )}
    </>
  );
}
