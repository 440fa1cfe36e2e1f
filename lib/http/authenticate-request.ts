// Who may make this request, from the request itself (middleware already checked, the wrapper never trusts that):
// a staff session (plus the Origin check for cookie sessions, and the endpoint's scope), a partner webhook's
// signature over the raw body, or the cron bearer. Then the money halt and the step-up claim. Each refusal is an
// AppError; nothing here parses the body beyond reading its bytes for the signature. First of all, a worker
// instance (APP_ROLE=worker) refuses everything but health: partner webhooks skip the middleware that refuses
// the rest, and a worker must never apply one.
import { timingSafeEqual } from 'node:crypto';
import {
  assertNotHalted,
  assertServesPath,
  requireAuthSecret,
  requireCronSecret,
  requireStepUpSecret,
  requireWebhookSecrets,
} from '../config';
import type { Deps } from '../deps';
import type { Endpoint } from '../endpoint';
import { AppError } from '../errors';
import { authenticate } from '../auth/authenticate';
import type { Principal } from '../auth/principal';
import { requireStepUp } from '../auth/step-up';
import { readStepUpClaim } from './step-up-cookie';
import { verifySignature } from '../webhooks/verify-signature';
import { readBodyBytes } from './read-body';

export type Caller = {
  /** Present on session endpoints; tenancy always comes from here. */
  principal?: Principal;
  /** The exact bytes of a signed webhook body (already read: a body can be read only once). */
  rawBody?: Uint8Array;
};

export async function authenticateRequest(endpoint: Endpoint, request: Request, deps: Deps): Promise<Caller> {
  assertServesPath(deps.config, endpoint.path);
  const caller: Caller = {};
  if (endpoint.auth === 'session') {
    const principal = await authenticate(deps, request.headers, {
      secret: requireAuthSecret(deps.config),
      appUrl: deps.config.appUrl,
    });
    if (principal.via === 'cookie') assertSameOrigin(request, deps.config.appUrl);
    for (const scope of [endpoint.scope, endpoint.alsoScope]) {
      if (scope && !principal.scopes.includes(scope)) {
        throw new AppError('SCOPE_MISSING', `This action needs the ${scope} scope`);
      }
    }
    caller.principal = principal;
  } else if (endpoint.auth === 'cron') {
    assertCronBearer(request.headers, requireCronSecret(deps.config));
  } else if (typeof endpoint.auth === 'object') {
    // Verify the exact raw bytes before anything parses them.
    const secrets = requireWebhookSecrets(deps.config, endpoint.auth.signature);
    caller.rawBody = await readBodyBytes(request);
    if (!verifySignature(caller.rawBody, request.headers.get('x-svc-signature'), secrets)) {
      throw new AppError('SIGNATURE_INVALID', 'The signature does not match the request body');
    }
  }
  // A global halt refuses money routes before anything else is asked of the caller.
  if (endpoint.money) assertNotHalted(deps.config);
  if (endpoint.stepUp) await requireRecentAuth(endpoint, request, caller.principal, deps);
  return caller;
}

/** STEP_UP_REQUIRED (401 + WWW-Authenticate) unless the request carries a valid claim for this session. */
export async function requireRecentAuth(
  endpoint: Endpoint,
  request: Request,
  principal: Principal | undefined,
  deps: Deps,
): Promise<void> {
  if (!principal) throw new Error(`${endpoint.method} ${endpoint.path}: a step-up needs auth 'session'`);
  await requireStepUp(readStepUpClaim(request.headers), principal, requireStepUpSecret(deps.config), deps.clock());
}

/** Cookie-authenticated unsafe requests must come from our own origin (DECISIONS: CSRF). */
function assertSameOrigin(request: Request, appUrl: string) {
  if (['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return;
  const source = request.headers.get('origin') ?? request.headers.get('referer');
  if (!source) return; // neither header: a non-browser caller; SameSite=Lax keeps cross-site forms cookieless
  let origin: string;
  try {
    origin = new URL(source).origin;
  } catch {
    origin = 'null';
  }
  if (origin !== new URL(appUrl).origin) throw new AppError('FORBIDDEN', 'Cross-origin requests are not allowed');
}

function assertCronBearer(headers: Headers, secret: string) {
  const [scheme, token] = (headers.get('authorization') ?? '').split(' ');
  const given = Buffer.from(scheme === 'Bearer' && token ? token : '');
  const expected = Buffer.from(secret);
  // Constant time: the bearer is attacker-controlled. Compare equal lengths only, then the length itself.
  const same = given.length === expected.length && timingSafeEqual(given, expected);
  if (!same) throw new AppError('UNAUTHENTICATED', 'A valid job token is required');
}
