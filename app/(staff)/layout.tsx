// Signed-in layout: who is signed in, for which clinic, the screens and sign-out. Signed-out views go to /login.
import type { ReactNode } from 'react';
import Link from 'next/link';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { findCurrentPrincipal } from '@/lib/http/find-current-principal';
import { SignOutButton } from '@/components/sign-out-button';
import { StepUpDialog } from '@/components/step-up-dialog';
import { navFor } from '@/components/staff-nav';
import { StaffMenu } from '@/components/staff-menu';
import { ClinicTimeProvider } from '@/components/clinic-time';

export const dynamic = 'force-dynamic';

export default async function StaffLayout({ children }: { children: ReactNode }) {
  const principal = await findCurrentPrincipal(await headers());
  if (!principal) redirect('/login');
  return (
    <>
      <header className="top">
        <strong>
          <Link href="/">Clinic Revenue Platform</Link>
        </strong>
        <StaffMenu items={navFor(principal.scopes).map(({ href, label }) => ({ href, label }))} />
        <div className="account">
          <span data-testid="signed-in-as">{principal.email}</span> ·{' '}
          <span data-testid="clinic-name">{principal.clinicName}</span> <SignOutButton />
        </div>
      </header>
      {/* Screens show "today", times and dates in the clinic's time zone. */}
      <ClinicTimeProvider timeZone={principal.clinicTimeZone}>
        <main>{children}</main>
      </ClinicTimeProvider>
      {/* The one step-up prompt: any screen's apiFetch call answered STEP_UP_REQUIRED opens it. */}
      <StepUpDialog />
    </>
  );
}
