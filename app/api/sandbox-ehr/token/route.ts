// POST /api/sandbox-ehr/token: the sandbox EHR's OAuth token endpoint (sandbox only). OAuth fixes its wire format:
// a form body in (RFC 6749 section 4.1.3), and the token response or `{ error }` out, never cached (section 5.1).
import { route } from '@/lib/http/route';
import { readBodyBytes } from '@/lib/http/read-body';
import { json } from '@/lib/http/responses';
import { sandboxTokenEndpoint } from '@/lib/sandbox-ehr/endpoints';
import { exchangeSandboxToken, type TokenAnswer } from '@/lib/sandbox-ehr/exchange-sandbox-token';
import { requireSandbox } from '@/lib/sandbox-ehr/sandbox-ehr-urls';

const render = (answer: TokenAnswer) => json(answer.body, { status: answer.status, headers: { pragma: 'no-cache' } });

export const POST = route({ ...sandboxTokenEndpoint, render }, async ({ deps, request }) => {
  requireSandbox(deps.config);
  const form = new URLSearchParams(new TextDecoder().decode(await readBodyBytes(request)));
  return exchangeSandboxToken(deps, form);
});
