// PUT /api/patients/{id}/coverage: replace a patient's coverage on file (claims:write, audited).
import { route } from '@/lib/http/route';
import { putPatientCoverageEndpoint } from '@/lib/patients/endpoints';
import { updateCoverage } from '@/lib/patients/update-coverage';

export const PUT = route(putPatientCoverageEndpoint, ({ params, body, actor, deps }) =>
  updateCoverage(deps, { ...body, patientId: params.id, ...actor }),
);
