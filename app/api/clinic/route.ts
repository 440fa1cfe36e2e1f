// GET /api/clinic: the caller's clinic settings (any signed-in user).
// PATCH /api/clinic: change its time zone and billing provider (users:admin, step-up, audited).
import { route } from '@/lib/http/route';
import { getClinicEndpoint, patchClinicEndpoint } from '@/lib/clinics/endpoints';
import { readClinicSettings, updateClinicSettings } from '@/lib/clinics/clinic-settings';

export const GET = route(getClinicEndpoint, ({ actor, deps }) => readClinicSettings(deps, actor.clinicId));

export const PATCH = route(patchClinicEndpoint, ({ body, actor, deps }) => updateClinicSettings(deps, actor, body));
