// GET /api/fhir/metadata: public; the FHIR R4 CapabilityStatement generated from the resource registry.
import { route } from '@/lib/http/route';
import { renderFhir } from '@/lib/http/fhir-response';
import { getCapabilityStatement } from '@/lib/fhir/endpoints';
import { buildCapabilityStatement } from '@/lib/fhir/capability-statement';

export const GET = route({ ...getCapabilityStatement, render: renderFhir }, ({ deps }) =>
  buildCapabilityStatement(deps.config.appUrl),
);
