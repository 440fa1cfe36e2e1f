// The sandbox EHR's token endpoint (RFC 6749 section 3.2; SMART App Launch v2 and Backend Services): the
// authorization_code grant with PKCE S256 for its demo browser client, refresh_token, and client_credentials
// authenticated by a private_key_jwt assertion that must verify against THIS app's own SMART key (the JWK Set we
// publish at /.well-known/jwks.json), so the backend pull is exercised end to end. Answers are OAuth's own JSON
// (a token response or `{ error }`), which the route sends with the status given here.
import { createHash } from 'node:crypto';
import { createLocalJWKSet, jwtVerify } from 'jose';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { publicJwks } from '../emr/jwks';
import { sandboxEhrUrls } from './sandbox-ehr-urls';
import {
  ACCESS_TOKEN_SECONDS,
  claimOnce,
  openValue,
  REFRESH_TOKEN_SECONDS,
  sealValue,
  secondsFrom,
  type AccessToken,
} from './sandbox-tokens';

export type TokenAnswer =
  | {
      status: 200;
      body: {
        access_token: string;
        token_type: 'Bearer';
        expires_in: number;
        scope: string;
        refresh_token?: string;
        patient?: string;
      };
    }
  | { status: 400 | 401; body: { error: string; error_description: string } };

type Deps = { config: Config; clock: Clock };

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
// SMART Backend Services: the assertion's exp is at most five minutes ahead; a minute of skew is tolerated.
const MAX_ASSERTION_SECONDS = 360;

const refuse = (status: 400 | 401, error: string, description: string): TokenAnswer => ({
  status,
  body: { error, error_description: description },
});

export async function exchangeSandboxToken(deps: Deps, form: URLSearchParams): Promise<TokenAnswer> {
  switch (form.get('grant_type')) {
    case 'authorization_code':
      return authorizationCodeGrant(deps, form);
    case 'refresh_token':
      return refreshTokenGrant(deps, form);
    case 'client_credentials':
      return clientCredentialsGrant(deps, form);
    default:
      return refuse(
        400,
        'unsupported_grant_type',
        'grant_type must be authorization_code, refresh_token or client_credentials',
      );
  }
}

function authorizationCodeGrant(deps: Deps, form: URLSearchParams): TokenAnswer {
  const code = openValue(deps.config, deps.clock, 'code', form.get('code'));
  // Single use even when the rest of the request is wrong: a code that was tried once is spent (RFC 6749 4.1.2).
  if (!code || !claimOnce(`code:${code.jti}`, code.exp, deps.clock))
    return refuse(400, 'invalid_grant', 'The code is unknown, expired or already used');
  if (form.get('client_id') !== code.clientId)
    return refuse(400, 'invalid_grant', 'The code was issued to another client');
  if (form.get('redirect_uri') !== code.redirectUri)
    return refuse(400, 'invalid_grant', 'redirect_uri differs from the authorization request');
  const verifier = form.get('code_verifier') ?? '';
  // RFC 7636 section 4.6: BASE64URL(SHA256(code_verifier)) must equal the code_challenge.
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || s256(verifier) !== code.codeChallenge)
    return refuse(400, 'invalid_grant', 'The PKCE code_verifier does not match the code_challenge');
  return issuePatientTokens(deps, {
    clientId: code.clientId,
    scope: code.scope,
    clinicId: code.clinicId,
    patient: code.patient,
  });
}

function refreshTokenGrant(deps: Deps, form: URLSearchParams): TokenAnswer {
  const refresh = openValue(deps.config, deps.clock, 'refresh', form.get('refresh_token'));
  if (!refresh) return refuse(400, 'invalid_grant', 'The refresh token is unknown or expired');
  if (form.get('client_id') !== refresh.clientId)
    return refuse(400, 'invalid_grant', 'The refresh token was issued to another client');
  return issuePatientTokens(deps, refresh, form.get('refresh_token')!);
}

function issuePatientTokens(
  deps: Deps,
  grant: { clientId: string; scope: string; clinicId: string; patient: string },
  currentRefreshToken?: string,
): TokenAnswer {
  const access: AccessToken = {
    t: 'access',
    clientId: grant.clientId,
    scope: grant.scope,
    clinicId: grant.clinicId,
    patient: grant.patient,
    exp: secondsFrom(deps.clock, ACCESS_TOKEN_SECONDS),
  };
  const offline = grant.scope.split(' ').includes('offline_access');
  // The refresh token is not rotated: a refresh answers with the one the client holds.
  const refreshToken = offline
    ? (currentRefreshToken ??
      sealValue(deps.config, { t: 'refresh', ...grant, exp: secondsFrom(deps.clock, REFRESH_TOKEN_SECONDS) }))
    : undefined;
  return {
    status: 200,
    body: {
      access_token: sealValue(deps.config, access),
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      scope: grant.scope,
      patient: grant.patient,
      ...(refreshToken && { refresh_token: refreshToken }),
    },
  };
}

async function clientCredentialsGrant(deps: Deps, form: URLSearchParams): Promise<TokenAnswer> {
  const assertion = form.get('client_assertion');
  if (form.get('client_assertion_type') !== JWT_BEARER || !assertion)
    return refuse(400, 'invalid_request', 'client_credentials needs a private_key_jwt client_assertion');
  const smart = deps.config.smart;
  if (!smart) return refuse(401, 'invalid_client', 'No backend client is registered with this EHR');
  const tokenUrl = sandboxEhrUrls(deps.config.appUrl).tokenUrl;
  let payload;
  try {
    // The registered client's key is our own published JWK Set: read from config, not fetched over the network.
    const keys = createLocalJWKSet(await publicJwks(smart.privateKeyPem, smart.keyId));
    ({ payload } = await jwtVerify(assertion, keys, {
      issuer: smart.clientId,
      subject: smart.clientId,
      audience: tokenUrl,
      algorithms: ['RS384', 'ES384'],
      currentDate: deps.clock(),
      requiredClaims: ['exp', 'jti'],
    }));
  } catch {
    return refuse(401, 'invalid_client', 'The client assertion does not verify against the registered key');
  }
  const nowSeconds = deps.clock().getTime() / 1000;
  if (payload.exp! - nowSeconds > MAX_ASSERTION_SECONDS)
    return refuse(401, 'invalid_client', 'The client assertion expires too far in the future');
  if (!claimOnce(`jti:${payload.jti}`, payload.exp!, deps.clock))
    return refuse(401, 'invalid_client', 'The client assertion was already used');
  const scope = (form.get('scope') ?? '')
    .split(' ')
    .filter((s) => /^system\/[A-Za-z*]+\.(read|rs|\*)$/.test(s))
    .join(' ');
  if (!scope) return refuse(400, 'invalid_scope', 'Ask for system/<type>.read scopes');
  const access: AccessToken = {
    t: 'access',
    clientId: smart.clientId,
    scope,
    exp: secondsFrom(deps.clock, ACCESS_TOKEN_SECONDS),
  };
  return {
    status: 200,
    body: {
      access_token: sealValue(deps.config, access),
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      scope,
    },
  };
}

const s256 = (verifier: string) => createHash('sha256').update(verifier, 'ascii').digest('base64url');
