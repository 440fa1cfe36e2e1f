// The signed-in principal for server components (layout, pages): the same check the API wrapper runs, with
// "not signed in" (or sign-in unavailable) as null instead of an error response.
import type { Principal } from '../auth/principal';
import { authenticate } from '../auth/authenticate';
import { getDeps } from '../deps';
import { isAppError } from '../errors';

export async function findCurrentPrincipal(headers: Headers): Promise<(Principal & { clinicName: string }) | null> {
  const deps = await getDeps();
  if (!deps.config.authSecret) return null;
  try {
    const principal = await authenticate(deps, headers, { secret: deps.config.authSecret, appUrl: deps.config.appUrl });
    const clinic = await deps.db.clinic.findUnique({ where: { id: principal.clinicId }, select: { name: true } });
    // principal.clinicTimeZone: every screen's "today" and times (components/clinic-time.tsx).
    return { ...principal, clinicName: clinic?.name ?? '' };
  } catch (error) {
    if (isAppError(error)) return null;
    throw error;
  }
}
