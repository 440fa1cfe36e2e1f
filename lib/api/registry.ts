// Every endpoint of the API, in one list: the OpenAPI document is generated from it, and the route tests
// check that each app/api route file is in it (and answers 401 without a session unless public).
// Each domain owns an `endpoints.ts` beside its code; add the domain's list here.
import type { Endpoint } from '../endpoint';
import { healthEndpoints } from '../health/endpoints';
import { appointmentEndpoints } from '../appointments/endpoints';
import { authEndpoints } from '../auth/endpoints';
import { eligibilityEndpoints } from '../eligibility/endpoints';
import { emrEndpoints } from '../emr/endpoints';
import { fhirEndpoints } from '../fhir/endpoints';
import { webhookEndpoints } from '../webhooks/endpoints';
import { claimEndpoints } from '../claims/endpoints';
import { settlementEndpoints } from '../settlements/endpoints';
import { payoutEndpoints } from '../payouts/endpoints';
import { billEndpoints } from '../bills/endpoints';
import { reconciliationEndpoints } from '../reconciliation/endpoints';
import { patientEndpoints } from '../patients/endpoints';
import { remittanceEndpoints } from '../remittances/endpoints';
import { userEndpoints } from '../users/endpoints';
import { auditEndpoints } from '../audit/endpoints';
import { sandboxEhrEndpoints } from '../sandbox-ehr/endpoints';
import { clinicEndpoints } from '../clinics/endpoints';
import { jobEndpoints } from '../background/endpoints';
import { cdsHooksEndpoints } from '../cds-hooks/endpoints';
import { dashboardEndpoints } from '../dashboard/endpoints';
import { homeEndpoints } from '../home/endpoints';
import { eventEndpoints } from '../events/endpoints';
import { changelogEndpoints } from '../changelog/endpoints';

export const ENDPOINTS: readonly Endpoint[] = [
  ...healthEndpoints,
  ...appointmentEndpoints,
  ...authEndpoints,
  ...eligibilityEndpoints,
  ...emrEndpoints,
  ...fhirEndpoints,
  ...webhookEndpoints,
  ...claimEndpoints,
  ...settlementEndpoints,
  ...payoutEndpoints,
  ...billEndpoints,
  ...reconciliationEndpoints,
  ...patientEndpoints,
  ...remittanceEndpoints,
  ...userEndpoints,
  ...auditEndpoints,
  ...sandboxEhrEndpoints,
  ...clinicEndpoints,
  ...jobEndpoints,
  ...cdsHooksEndpoints,
  ...dashboardEndpoints,
  ...homeEndpoints,
  ...eventEndpoints,
  ...changelogEndpoints,
];
