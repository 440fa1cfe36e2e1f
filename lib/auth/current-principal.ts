// The signed-in principal for server components (layout, pages): the same check the API wrapper runs.
import type { Principal } from './principal';
import { authenticate } from './authenticate';
import { getDeps } from '../deps';
import { isAppError } from '../errors';

export async function findCurrentPrincipal(headers: Headers): Promise<(Principal & { clinicName: string }) | null> {
  const deps = await getDeps();
  if (!deps.config.authSecret) return null;
  try {
    const principal = await authenticate(deps, headers, { secret: deps.config.authSecret, appUrl: deps.config.appUrl });
    const clinic = await deps.db.clinic.findUnique({ where: { id: principal.clinicId }, select: { name: true } });
    return { ...principal, clinicName: clinic?.name ?? '' };
  } catch (error) {
    if (isAppError(error)) return null;
    throw error;
  }
}
