// GET /api/sandbox-ehr/fhir/metadata: the sandbox EHR's CapabilityStatement (sandbox only).
import { route } from '@/lib/http/route';
import { renderFhir } from '@/lib/http/fhir-response';
import { sandboxMetadataEndpoint } from '@/lib/sandbox-ehr/endpoints';
import { sandboxCapabilityStatement } from '@/lib/sandbox-ehr/sandbox-discovery';

export const GET = route({ ...sandboxMetadataEndpoint, render: renderFhir }, ({ deps }) =>
  sandboxCapabilityStatement(deps.config),
);
