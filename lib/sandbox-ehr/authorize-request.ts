// The sandbox EHR's authorize step (SMART App Launch v2 "Obtain authorization code"): checks the request the
// app sent the browser with, and, once the signed-in staff user approved (picking one of their clinic's synthetic
// patients as the launch/patient context) or denied, builds the redirect back with `code` and `state` (or
// `error=access_denied`). A request whose client or redirect_uri is wrong is never redirected (RFC 6749
// section 4.1.2.1): the page shows the error instead.
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { AppError } from '../errors';
import { redirectUriFor } from '../emr/oauth-endpoints';
import { clinicRecords } from './synthetic-records';
import { sandboxEhrUrls, SANDBOX_EHR_DEMO_CLIENT_ID } from './sandbox-ehr-urls';
import { CODE_SECONDS, newJti, sealValue, secondsFrom } from './sandbox-tokens';

export const AuthorizeRequest = z.object({
  response_type: z.string().max(50).optional(),
  client_id: z.string().max(200).optional(),
  redirect_uri: z.string().max(2000).optional(),
  scope: z.string().max(2000).optional(),
  state: z.string().max(512).optional(),
  aud: z.string().max(2000).optional(),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
});
export type AuthorizeRequest = z.infer<typeof AuthorizeRequest>;

export const AuthorizeDecision = AuthorizeRequest.extend({
  decision: z.enum(['approve', 'deny']),
  patient: z.string().max(64).optional(),
});
export type AuthorizeDecision = z.infer<typeof AuthorizeDecision>;

export type CheckedAuthorizeRequest =
  | { ok: true; clientId: string; redirectUri: string; scope: string; state: string; codeChallenge: string }
  /** `redirect`: the error goes back to the client (its redirect_uri is trusted); else it is shown on the page. */
  | { ok: false; message: string; redirect?: string };

export function checkAuthorizeRequest(
  config: Pick<Config, 'appUrl'>,
  request: AuthorizeRequest,
): CheckedAuthorizeRequest {
  if (request.client_id !== SANDBOX_EHR_DEMO_CLIENT_ID)
    return {
      ok: false,
      message: `Unknown client. The sandbox EHR registers one client id: ${SANDBOX_EHR_DEMO_CLIENT_ID}`,
    };
  const redirectUri = redirectUriFor(config.appUrl);
  if (request.redirect_uri !== redirectUri)
    return { ok: false, message: 'The redirect_uri is not the one registered for this client' };
  const back = (error: string, description: string) => ({
    ok: false as const,
    message: description,
    redirect: withQuery(redirectUri, { error, error_description: description, state: request.state }),
  });
  if (request.response_type !== 'code') return back('unsupported_response_type', 'response_type must be code');
  if (!request.state) return back('invalid_request', 'state is required');
  // SMART App Launch v2: PKCE S256 is mandatory, and aud must name this EHR's FHIR base.
  if (request.code_challenge_method !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(request.code_challenge ?? ''))
    return back('invalid_request', 'A PKCE S256 code_challenge is required');
  if (request.aud !== sandboxEhrUrls(config.appUrl).fhirBaseUrl)
    return back('invalid_request', "aud must be this EHR's FHIR base URL");
  if (!request.scope?.trim()) return back('invalid_scope', 'scope is required');
  return {
    ok: true,
    clientId: request.client_id,
    redirectUri,
    scope: request.scope.trim(),
    state: request.state,
    codeChallenge: request.code_challenge!,
  };
}

/** The URL the browser goes to after the user's decision. Throws VALIDATION_FAILED for a request the page refused. */
export function decideAuthorization(
  deps: { config: Config; clock: Clock },
  input: AuthorizeDecision & { clinicId: string },
): string {
  const checked = checkAuthorizeRequest(deps.config, input);
  if (!checked.ok) {
    if (checked.redirect) return checked.redirect;
    throw new AppError('VALIDATION_FAILED', checked.message, {
      issues: [{ path: 'body.client_id', message: checked.message }],
    });
  }
  if (input.decision === 'deny')
    return withQuery(checked.redirectUri, {
      error: 'access_denied',
      error_description: 'The user denied access',
      state: checked.state,
    });
  const patient = clinicRecords(input.clinicId).byType.Patient.find((p) => p.id === input.patient);
  if (!patient)
    throw new AppError('VALIDATION_FAILED', 'Pick one of the listed patients', {
      issues: [{ path: 'body.patient', message: "Not one of this clinic's patients" }],
    });
  const code = sealValue(deps.config, {
    t: 'code',
    jti: newJti(),
    clientId: checked.clientId,
    redirectUri: checked.redirectUri,
    codeChallenge: checked.codeChallenge,
    scope: checked.scope,
    clinicId: input.clinicId,
    patient: patient.id,
    exp: secondsFrom(deps.clock, CODE_SECONDS),
  });
  return withQuery(checked.redirectUri, { code, state: checked.state });
}

function withQuery(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}
