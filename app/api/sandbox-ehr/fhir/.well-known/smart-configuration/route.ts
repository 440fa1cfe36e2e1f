// GET /api/sandbox-ehr/fhir/.well-known/smart-configuration: the sandbox EHR's SMART discovery (sandbox only).
import { route } from '@/lib/http/route';
import { sandboxSmartConfigurationEndpoint } from '@/lib/sandbox-ehr/endpoints';
import { sandboxSmartConfiguration } from '@/lib/sandbox-ehr/sandbox-discovery';

export const GET = route(sandboxSmartConfigurationEndpoint, ({ deps }) => sandboxSmartConfiguration(deps.config));
