// The CORS preflight of the CDS Hooks endpoints (CDS Hooks 2.0: services SHALL support CORS): 204 with the same
// allow headers every CDS response carries. No credential is involved: the EHR's JWT travels in Authorization.
import { CDS_CORS_HEADERS } from '../cds-hooks/endpoints';

export function cdsPreflight(): Response {
  return new Response(null, { status: 204, headers: CDS_CORS_HEADERS });
}
