// GET /api/patients?name=&birthDate=&memberId=&limit=: search the clinic's patients (patients:read, PHI-logged).
import { route } from '@/lib/http/route';
import { listPatientsEndpoint } from '@/lib/patients/endpoints';
import { listPatients } from '@/lib/patients/list-patients';

export const GET = route(listPatientsEndpoint, ({ query, actor, deps }) => listPatients(deps, actor, query));
