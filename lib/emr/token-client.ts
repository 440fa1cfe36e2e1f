// The EMR token endpoint adapter: the authorization-code exchange (SMART App Launch v2, public client with PKCE),
// the refresh-token grant, and the SMART Backend Services client_credentials grant with a private_key_jwt
// assertion. Does not store tokens or decide when to refresh them, nor which connection a token belongs to, nor
// where a token may be sent: the caller says whether the token URL is the operator's (EMR_VENDORS) or was
// discovered from a tenant's FHIR base.
//
// Errors (AppError):
// - TRANSPORT_FAILED "The EMR could not be reached; try again later" (lib/outbound): network error, refused
//   address, timeout, redirect, oversized or invalid body, an unexpected status, and OAuth errors our caller cannot
//   act on (invalid_request, invalid_scope...). The status and OAuth error code go to the log (the cause), never to
//   the client: echoing them made the token request a port scanner.
// - UNPROCESSABLE: `invalid_grant`, whatever the HTTP status (400 as RFC 6749 says, but EHRs also send
//   401 and 403): the code or refresh token is no longer good and the connection needs authorizing again.
// - UNPROCESSABLE: `invalid_client` / `unauthorized_client` (the EMR refuses this client or its assertion: the
//   registration or key needs fixing). `cause` is `{ httpStatus, oauthError }` so callers can tell them apart.
// Messages never contain codes, verifiers, assertions or tokens, nor the EMR's free-text error_description.
import { SignJWT } from 'jose';
import { z } from 'zod';
import { systemClock, type Clock } from '@/lib/clock';
import { AppError } from '@/lib/errors';
import { egressError, KIB, loggableUrl, type Egress, type EgressTarget } from '@/lib/outbound/egress';
import { importSigningKey } from './jwks';
import { parseSecureUrl } from './smart-configuration';

export type EmrTokens = {
  accessToken: string;
  refreshToken?: string;
  /** Seconds from issue, as the EMR sent it. */
  expiresIn?: number;
  scope?: string;
  /** SMART launch context: the patient id in scope (launch/patient). */
  patient?: string;
};

type HttpOptions = {
  egress: Egress;
  /** 'operator' for a token URL from EMR_VENDORS; 'tenant' for one discovered from a connection's FHIR base. */
  target: EgressTarget;
  timeoutMs?: number;
};

export type AuthorizationCodeExchange = HttpOptions & {
  tokenUrl: string;
  clientId: string;
  code: string;
  redirectUri: string;
  codeVerifier: string;
};

export type RefreshTokenRequest = HttpOptions & {
  tokenUrl: string;
  clientId: string;
  refreshToken: string;
};

export type BackendServicesTokenRequest = HttpOptions & {
  tokenUrl: string;
  clientId: string;
  privateKeyPem: string;
  keyId: string;
  scope: string;
  clock?: Clock;
  /** Source of the assertion's unique `jti`; defaults to a random UUID. */
  newJti?: () => string;
};

export type OAuthErrorCause = { httpStatus: number; oauthError?: string };

const DEFAULT_TIMEOUT_MS = 10_000;
// A token response is a few hundred bytes (a JWT access token a few KiB); anything near this is not one.
const MAX_TOKEN_RESPONSE_BYTES = 64 * KIB;
// SMART Backend Services: the assertion's exp SHALL be no more than five minutes in the future.
const ASSERTION_LIFETIME_SECONDS = 300;
const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Exchanges an authorization code (RFC 6749 section 4.1.3 plus RFC 7636 code_verifier). Throws AppError. */
export async function exchangeAuthorizationCode(input: AuthorizationCodeExchange): Promise<EmrTokens> {
  return postTokenRequest(
    input.tokenUrl,
    {
      grant_type: 'authorization_code',
      code: input.code,
      redirect_uri: input.redirectUri,
      code_verifier: input.codeVerifier,
      // SMART public client: identifies itself by client_id in the body (RFC 6749 section 4.1.3).
      client_id: input.clientId,
    },
    input,
  );
}

/**
 * Refreshes an access token (RFC 6749 section 6; SMART App Launch v2 "Refresh access token", public client: the
 * client_id in the body). The answer may carry a new refresh token (rotation) or none (keep the old one).
 * Throws AppError as above: `invalid_grant` (UNPROCESSABLE) means the grant is gone and the user must
 * authorize again.
 */
export async function refreshAccessToken(input: RefreshTokenRequest): Promise<EmrTokens> {
  return postTokenRequest(
    input.tokenUrl,
    { grant_type: 'refresh_token', refresh_token: input.refreshToken, client_id: input.clientId },
    input,
  );
}

/**
 * SMART Backend Services token request: client_credentials authenticated by a signed JWT (RFC 7523).
 * Throws Error for an unusable key (before any network call) and AppError for the EMR's answer.
 */
export async function requestBackendServicesToken(input: BackendServicesTokenRequest): Promise<EmrTokens> {
  requireSecureTokenUrl(input.tokenUrl);
  const clientAssertion = await signClientAssertion(input);
  return postTokenRequest(
    input.tokenUrl,
    {
      grant_type: 'client_credentials',
      scope: input.scope,
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      client_assertion: clientAssertion,
    },
    input,
  );
}

async function signClientAssertion(input: BackendServicesTokenRequest): Promise<string> {
  const { key, alg } = await importSigningKey(input.privateKeyPem);
  const nowSeconds = Math.floor((input.clock ?? systemClock)().getTime() / 1000);
  // SMART Backend Services, "Authenticating to the Token endpoint": iss = sub = client_id, aud = the token URL,
  // a jti never reused, exp at most 5 minutes ahead; the header names the key (kid) so the EMR can pick it from
  // our JWKS, and typ JWT.
  return new SignJWT({})
    .setProtectedHeader({ alg, kid: input.keyId, typ: 'JWT' })
    .setIssuer(input.clientId)
    .setSubject(input.clientId)
    .setAudience(input.tokenUrl)
    .setJti((input.newJti ?? (() => crypto.randomUUID()))())
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + ASSERTION_LIFETIME_SECONDS)
    .sign(key);
}

function requireSecureTokenUrl(tokenUrl: string): void {
  // The token endpoint receives codes, verifiers and assertions: never over cleartext (OAuth 2.0 Security BCP).
  if (!parseSecureUrl(tokenUrl)) throw new Error('The EMR token URL must be an absolute https URL');
}

// RFC 6749 section 5.1. Some EMRs send expires_in as a numeric string; both are accepted.
const TokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.string().refine((value) => value.toLowerCase() === 'bearer', 'token_type must be Bearer'),
  expires_in: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
  patient: z.string().min(1).optional(),
});

// RFC 6749 section 5.2. Only the code is kept: error_description is free text from the EMR.
const OAuthErrorResponse = z.object({ error: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/) });

async function postTokenRequest(tokenUrl: string, form: Record<string, string>, opts: HttpOptions): Promise<EmrTokens> {
  requireSecureTokenUrl(tokenUrl);
  // Redirects refused (egress): one would resend the code or assertion to wherever the EMR points.
  const response = await opts.egress.request({
    url: tokenUrl,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
    target: opts.target,
    purpose: 'emr',
    maxBodyBytes: MAX_TOKEN_RESPONSE_BYTES,
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  });
  const where = loggableUrl(new URL(tokenUrl));
  const body = parseJsonOrUndefined(response.text());
  if (response.status !== 200) throw tokenError(response.status, body, where);

  const parsed = TokenResponse.safeParse(body);
  if (!parsed.success) {
    // Only paths and issue codes go into the cause: the body holds a token.
    const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), code: issue.code }));
    throw egressError('emr', { reason: 'invalid-body', url: where, status: response.status, issues });
  }
  const tokens = parsed.data;
  return {
    accessToken: tokens.access_token,
    ...(tokens.refresh_token !== undefined && { refreshToken: tokens.refresh_token }),
    ...(tokens.expires_in !== undefined && { expiresIn: tokens.expires_in }),
    ...(tokens.scope !== undefined && { scope: tokens.scope }),
    ...(tokens.patient !== undefined && { patient: tokens.patient }),
  };
}

function tokenError(httpStatus: number, body: unknown, url: string): AppError {
  const oauthError = OAuthErrorResponse.safeParse(body).data?.error;
  const cause: OAuthErrorCause = { httpStatus, ...(oauthError !== undefined && { oauthError }) };
  // OAuth errors come with 400 (401 for invalid_client, RFC 6749 section 5.2). `invalid_grant` is the EHR's word
  // that the grant is gone, whatever status carries it (real EHRs answer a refused refresh with 401 or 403 too):
  // never an outage (DECISIONS "Security findings of 2026-11-28", EMR pulls). Anything else is a broken exchange.
  if (httpStatus >= 400 && oauthError === 'invalid_grant') {
    return new AppError('UNPROCESSABLE', 'The EMR refused the authorization; the connection needs authorizing again', {
      cause,
    });
  }
  if (
    (httpStatus === 400 || httpStatus === 401) &&
    (oauthError === 'invalid_client' || oauthError === 'unauthorized_client')
  ) {
    return new AppError(
      'UNPROCESSABLE',
      "The EMR refused this client's credentials; check the connection's registration",
      {
        cause,
      },
    );
  }
  return egressError('emr', {
    reason: 'status',
    url,
    status: httpStatus,
    ...(oauthError !== undefined && { oauthError }),
  });
}

function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
