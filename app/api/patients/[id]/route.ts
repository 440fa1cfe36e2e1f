// GET /api/patients/{id}: one patient's record, coverage on file, eligibility history and appointments
// (patients:read, PHI-logged).
import { route } from '@/lib/http/route';
import { getPatientEndpoint } from '@/lib/patients/endpoints';
import { getPatient } from '@/lib/patients/get-patient';

export const GET = route(getPatientEndpoint, ({ params, actor, deps }) => getPatient(deps, actor, params.id));
