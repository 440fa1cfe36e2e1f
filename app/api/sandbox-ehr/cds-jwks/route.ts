// GET /api/sandbox-ehr/cds-jwks: the sandbox EHR's CDS Hooks signing key, public half (sandbox only; 404 otherwise).
import { route } from '@/lib/http/route';
import { sandboxCdsJwksEndpoint } from '@/lib/sandbox-ehr/endpoints';
import { sandboxCdsJwks } from '@/lib/sandbox-ehr/sandbox-cds-client';

export const GET = route(sandboxCdsJwksEndpoint, ({ deps }) => sandboxCdsJwks(deps.config));
