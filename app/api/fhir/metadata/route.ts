// GET /api/fhir/metadata: public; the FHIR R4 CapabilityStatement generated from the resource registry.
import { route } from '@/lib/http/route';
import { getCapabilityStatement } from '@/lib/fhir/endpoints';
import { buildCapabilityStatement } from '@/lib/fhir/capability-statement';
import { fhirJson } from '@/lib/fhir/fhir-json';

export const GET = route(getCapabilityStatement, ({ deps }) => fhirJson(buildCapabilityStatement(deps.config.appUrl)));
