// The signed-in principal when it holds `scope`, else null: each billing page checks on the server before it
// renders anything (the layout has already sent signed-out visitors to /login). It carries the clinic's IANA
// time zone too, which the screens format dates in and take "today" from (DECISIONS "Staff app").
import { headers } from 'next/headers';
import type { Scope } from '@/lib/auth/scopes';
import { getDeps } from '@/lib/deps';
import { findCurrentPrincipal } from '@/lib/http/find-current-principal';
import { clinicToday } from '@/lib/time/clinic-day';

export async function findPrincipalWith(scope: Scope) {
  const principal = await findCurrentPrincipal(await headers());
  if (!principal || !principal.scopes.includes(scope)) return null;
  const { db, clock } = await getDeps();
  const clinic = await db.clinic.findUnique({ where: { id: principal.clinicId }, select: { timeZone: true } });
  const timeZone = clinic?.timeZone ?? 'America/New_York';
  return { ...principal, timeZone, today: clinicToday(clock(), timeZone) };
}
