// POST /api/sandbox-ehr/cds-token: a CDS Hooks call JWT of the caller's clinic's sandbox issuer (sandbox only).
import { route } from '@/lib/http/route';
import { sandboxCdsTokenEndpoint } from '@/lib/sandbox-ehr/endpoints';
import { mintSandboxCdsToken } from '@/lib/sandbox-ehr/sandbox-cds-client';

export const POST = route(sandboxCdsTokenEndpoint, ({ body, actor, deps }) =>
  mintSandboxCdsToken(deps, actor.clinicId, body),
);
