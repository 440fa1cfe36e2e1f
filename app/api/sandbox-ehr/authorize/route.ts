// POST /api/sandbox-ehr/authorize: the Approve/Deny form of the sandbox EHR's authorize page (sandbox only); 302
// back to the client with code and state (or error=access_denied). The patient comes from the user's own clinic.
import { route } from '@/lib/http/route';
import { readBodyBytes } from '@/lib/http/read-body';
import { redirect } from '@/lib/http/responses';
import { parseInput } from '@/lib/http/parse-input';
import { sandboxAuthorizeDecisionEndpoint } from '@/lib/sandbox-ehr/endpoints';
import { AuthorizeDecision, decideAuthorization } from '@/lib/sandbox-ehr/authorize-request';
import { requireSandbox } from '@/lib/sandbox-ehr/sandbox-ehr-urls';

export const POST = route(sandboxAuthorizeDecisionEndpoint, async ({ deps, request, actor }) => {
  requireSandbox(deps.config);
  // An HTML form posts application/x-www-form-urlencoded.
  const form = Object.fromEntries(new URLSearchParams(new TextDecoder().decode(await readBodyBytes(request))));
  const decision = parseInput(AuthorizeDecision, form, 'body');
  return redirect(decideAuthorization(deps, { ...decision, clinicId: actor.clinicId }), {
    'referrer-policy': 'no-referrer',
  });
});
