// The signed-in principal when it holds `scope`, else null: each billing page checks on the server before it
// renders anything (the layout has already sent signed-out visitors to /login). `today` is the clinic's date
// (its time zone, DECISIONS "Staff app"): the default date of service.
import { headers } from 'next/headers';
import type { Scope } from '@/lib/auth/scopes';
import { getDeps } from '@/lib/deps';
import { findCurrentPrincipal } from '@/lib/http/find-current-principal';
import { clinicToday } from '@/lib/time/clinic-day';

export async function findPrincipalWith(scope: Scope) {
  const principal = await findCurrentPrincipal(await headers());
  if (!principal || !principal.scopes.includes(scope)) return null;
  const { clock } = await getDeps();
  return { ...principal, today: clinicToday(clock(), principal.clinicTimeZone) };
}
