import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeEmr, type FakeEmr } from '@/test/fakes/fake-emr';
import { rejection } from '@/test/support/rejection';
import { searchAll } from '@/lib/fhir/fhir-search-client';
import { buildAuthorizeUrl } from './authorize-url';
import { createPkcePair, randomState } from './pkce';
import { createEgress } from '@/lib/outbound/egress';
import { startScriptedServer } from '@/test/fakes/scripted-server';
import { exchangeAuthorizationCode, refreshAccessToken, requestBackendServicesToken } from './token-client';

const net = { egress: createEgress({ mode: 'sandbox', allowedOrigins: [] }), target: 'operator' as const };
const NEUTRAL = 'The EMR could not be reached; try again later';

const CLIENT_ID = 'clinic-app';
const REDIRECT_URI = 'https://app.example/api/emr-sync/callback';
const SCOPE = 'launch/patient patient/*.read offline_access';

type KeyFixture = { privateKeyPem: string; publicKeyPem: string };
type KeyName = 'RS384' | 'ES384' | 'otherRS384';
const keys = {} as Record<KeyName, KeyFixture>;

beforeAll(async () => {
  for (const [name, alg] of [
    ['RS384', 'RS384'],
    ['ES384', 'ES384'],
    ['otherRS384', 'RS384'],
  ] as const) {
    const pair = await generateKeyPair(alg, { extractable: true });
    keys[name] = { privateKeyPem: await exportPKCS8(pair.privateKey), publicKeyPem: await exportSPKI(pair.publicKey) };
  }
});

let emr: FakeEmr | undefined;
afterEach(async () => {
  await emr?.close();
  emr = undefined;
});

/** Plays the browser: follows the authorize URL to the EMR's 302 and returns the code it carries. */
async function authorizeInBrowser(fake: FakeEmr, codeChallenge: string): Promise<string> {
  const state = randomState();
  const url = buildAuthorizeUrl({
    authorizationEndpoint: fake.authorizeUrl,
    clientId: CLIENT_ID,
    redirectUri: REDIRECT_URI,
    scope: SCOPE,
    state,
    codeChallenge,
    aud: fake.fhirBaseUrl,
  });
  const response = await fetch(url, { redirect: 'manual' });
  const location = new URL(response.headers.get('location') ?? '');
  expect(location.searchParams.get('state')).toBe(state);
  return location.searchParams.get('code') ?? '';
}

describe('exchangeAuthorizationCode', () => {
  it('exchanges a code with the matching verifier for tokens that open the FHIR API', async () => {
    emr = await startFakeEmr({ clientId: CLIENT_ID });
    const pkce = createPkcePair();
    const code = await authorizeInBrowser(emr, pkce.codeChallenge);

    const tokens = await exchangeAuthorizationCode({
      ...net,
      tokenUrl: emr.tokenUrl,
      clientId: CLIENT_ID,
      code,
      redirectUri: REDIRECT_URI,
      codeVerifier: pkce.codeVerifier,
    });

    expect(tokens).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresIn: 3600,
      scope: SCOPE,
      patient: 'pat-1',
    });
    expect(emr.receivedTokenRequests).toEqual([
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: pkce.codeVerifier,
        client_id: CLIENT_ID,
      },
    ]);
    const patients = await searchAll({
      ...net,
      purpose: 'emr',
      baseUrl: emr.fhirBaseUrl,
      resourceType: 'Patient',
      params: {},
      accessToken: tokens.accessToken,
    });
    expect(patients.map((p) => p.id)).toEqual(['pat-1', 'pat-2']);
  });

  it('is refused with UNPROCESSABLE when the verifier does not match the challenge, and leaks no secret', async () => {
    emr = await startFakeEmr({ clientId: CLIENT_ID });
    const code = await authorizeInBrowser(emr, createPkcePair().codeChallenge);
    const wrongVerifier = createPkcePair().codeVerifier;

    const error = await rejection(
      exchangeAuthorizationCode({
        ...net,
        tokenUrl: emr.tokenUrl,
        clientId: CLIENT_ID,
        code,
        redirectUri: REDIRECT_URI,
        codeVerifier: wrongVerifier,
      }),
    );

    expect({ code: error.code, message: error.message, status: error.status }).toEqual({
      code: 'UNPROCESSABLE',
      message: 'The EMR refused the authorization; the connection needs authorizing again',
      status: 422,
    });
    expect(error.options.cause).toEqual({ httpStatus: 400, oauthError: 'invalid_grant' });
    expect(JSON.stringify({ message: error.message, cause: error.options.cause })).not.toContain(code);
    expect(error.message).not.toContain(wrongVerifier);
  });

  it('cannot use a code twice', async () => {
    emr = await startFakeEmr({ clientId: CLIENT_ID });
    const pkce = createPkcePair();
    const code = await authorizeInBrowser(emr, pkce.codeChallenge);
    const exchange = {
      ...net,
      tokenUrl: emr.tokenUrl,
      clientId: CLIENT_ID,
      code,
      redirectUri: REDIRECT_URI,
      codeVerifier: pkce.codeVerifier,
    };
    await exchangeAuthorizationCode(exchange);
    const error = await rejection(exchangeAuthorizationCode(exchange));
    expect(error.code).toBe('UNPROCESSABLE');
  });

  it.each([400, 401, 403])(
    'reads invalid_grant answered with %i as a grant to renew, never as an outage',
    async (status) => {
      const server = await startScriptedServer();
      try {
        server.answer('/token', { status, body: JSON.stringify({ error: 'invalid_grant', error_description: 'x' }) });
        const error = await rejection(
          refreshAccessToken({ ...net, tokenUrl: `${server.origin}/token`, clientId: CLIENT_ID, refreshToken: 'r' }),
        );
        expect({ code: error.code, status: error.status, cause: error.options.cause }).toEqual({
          code: 'UNPROCESSABLE',
          status: 422,
          cause: { httpStatus: status, oauthError: 'invalid_grant' },
        });
      } finally {
        await server.close();
      }
    },
  );

  it.each([
    { failure: 500 as const, timeoutMs: 5_000, cause: { reason: 'status', status: 500 } },
    { failure: 503 as const, timeoutMs: 5_000, cause: { reason: 'status', status: 503 } },
    { failure: 'hang' as const, timeoutMs: 200, cause: { reason: 'timeout' } },
  ])(
    'fails with the neutral TRANSPORT_FAILED when the token endpoint answers $failure',
    async ({ failure, timeoutMs, cause }) => {
      emr = await startFakeEmr({ clientId: CLIENT_ID });
      emr.failNext('/oauth/token', failure);
      const error = await rejection(
        exchangeAuthorizationCode({
          ...net,
          tokenUrl: emr.tokenUrl,
          clientId: CLIENT_ID,
          code: 'c',
          redirectUri: REDIRECT_URI,
          codeVerifier: createPkcePair().codeVerifier,
          timeoutMs,
        }),
      );
      expect({ code: error.code, message: error.message }).toEqual({ code: 'TRANSPORT_FAILED', message: NEUTRAL });
      expect(error.options.cause).toMatchObject({ purpose: 'emr', ...cause });
      expect(emr.requests.token).toBe(1);
    },
  );

  it.each([
    { name: 'a body that is not JSON', status: 200, body: '<html>ok</html>', cause: { reason: 'invalid-body' } },
    { name: 'no access_token', status: 200, body: '{"token_type":"Bearer"}', cause: { reason: 'invalid-body' } },
    {
      name: 'a non-bearer token type',
      status: 200,
      body: '{"access_token":"a","token_type":"mac"}',
      cause: { reason: 'invalid-body' },
    },
    {
      name: 'invalid_scope',
      status: 400,
      body: '{"error":"invalid_scope","error_description":"internal detail"}',
      cause: { reason: 'status', status: 400, oauthError: 'invalid_scope' },
    },
    { name: 'a 400 without an OAuth error', status: 400, body: 'bad', cause: { reason: 'status', status: 400 } },
  ])(
    'fails with the neutral TRANSPORT_FAILED on $name: no status or OAuth text reaches the message',
    async ({ status, body, cause }) => {
      const server = await startScriptedServer();
      try {
        server.answer('/token', { status, body });
        const error = await rejection(
          exchangeAuthorizationCode({
            ...net,
            tokenUrl: `${server.origin}/token`,
            clientId: CLIENT_ID,
            code: 'c',
            redirectUri: REDIRECT_URI,
            codeVerifier: 'v',
          }),
        );
        expect({ code: error.code, message: error.message }).toEqual({ code: 'TRANSPORT_FAILED', message: NEUTRAL });
        expect(error.options.cause).toMatchObject({ purpose: 'emr', ...cause });
      } finally {
        await server.close();
      }
    },
  );

  it('never sends a code to a cleartext token URL', async () => {
    let lookups = 0;
    const counting = createEgress({ mode: 'sandbox', allowedOrigins: [], resolve: async () => (lookups++, []) });
    await expect(
      exchangeAuthorizationCode({
        ...net,
        tokenUrl: 'http://emr.example/token',
        clientId: CLIENT_ID,
        code: 'c',
        redirectUri: REDIRECT_URI,
        codeVerifier: 'v',
        egress: counting,
        target: 'tenant',
      }),
    ).rejects.toThrow('The EMR token URL must be an absolute https URL');
    expect(lookups).toBe(0);
  });
});

describe('requestBackendServicesToken', () => {
  it.each(['RS384', 'ES384'] as const)(
    'gets a token with a %s client assertion whose claims the EMR checks',
    async (alg) => {
      emr = await startFakeEmr({ clientId: CLIENT_ID, publicKeyPem: keys[alg].publicKeyPem, keyId: 'key-1' });
      const before = Math.floor(Date.now() / 1000);

      const tokens = await requestBackendServicesToken({
        ...net,
        tokenUrl: emr.tokenUrl,
        clientId: CLIENT_ID,
        privateKeyPem: keys[alg].privateKeyPem,
        keyId: 'key-1',
        scope: 'system/*.read',
      });

      expect(tokens).toEqual({ accessToken: expect.any(String), expiresIn: 300, scope: 'system/*.read' });
      const [received] = emr.receivedTokenRequests;
      expect(Object.keys(received ?? {}).sort()).toEqual([
        'client_assertion',
        'client_assertion_type',
        'grant_type',
        'scope',
      ]);
      expect(received).toMatchObject({
        grant_type: 'client_credentials',
        scope: 'system/*.read',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      });
      const assertion = received?.client_assertion ?? '';
      expect(decodeProtectedHeader(assertion)).toEqual({ alg, kid: 'key-1', typ: 'JWT' });
      const claims = decodeJwt(assertion);
      expect(claims).toMatchObject({ iss: CLIENT_ID, sub: CLIENT_ID, aud: emr.tokenUrl, jti: expect.any(String) });
      expect(claims.exp).toBeGreaterThan(before);
      expect((claims.exp ?? 0) - before).toBeLessThanOrEqual(300 + 1);

      const patients = await searchAll({
        ...net,
        purpose: 'emr',
        baseUrl: emr.fhirBaseUrl,
        resourceType: 'Patient',
        params: {},
        accessToken: tokens.accessToken,
      });
      expect(patients).toHaveLength(2);
    },
  );

  it('uses a fresh jti each time, and a reused jti is refused', async () => {
    emr = await startFakeEmr({ clientId: CLIENT_ID, publicKeyPem: keys.ES384.publicKeyPem });
    const request = {
      ...net,
      tokenUrl: emr.tokenUrl,
      clientId: CLIENT_ID,
      privateKeyPem: keys.ES384.privateKeyPem,
      keyId: 'key-1',
      scope: 'system/*.read',
    };
    await requestBackendServicesToken(request);
    await requestBackendServicesToken(request);
    const [first, second] = emr.receivedTokenRequests.map((form) => decodeJwt(form.client_assertion ?? '').jti);
    expect(first).not.toBe(second);

    await requestBackendServicesToken({ ...request, newJti: () => 'jti-fixed' });
    const error = await rejection(requestBackendServicesToken({ ...request, newJti: () => 'jti-fixed' }));
    expect({ code: error.code, message: error.message }).toEqual({
      code: 'UNPROCESSABLE',
      message: "The EMR refused this client's credentials; check the connection's registration",
    });
    expect(error.options.cause).toEqual({ httpStatus: 401, oauthError: 'invalid_client' });
  });

  it.each([
    { name: 'signed with a key the EMR does not know', setup: 'otherKey' },
    { name: 'expired (clock ten minutes behind)', setup: 'oldClock' },
    { name: 'issued for another client id', setup: 'otherClient' },
  ] as const)('is refused with UNPROCESSABLE when the assertion is $name', async ({ setup }) => {
    emr = await startFakeEmr({
      clientId: CLIENT_ID,
      // Same algorithm, another key: only the signature check can tell.
      publicKeyPem: setup === 'otherKey' ? keys.otherRS384.publicKeyPem : keys.RS384.publicKeyPem,
    });
    const error = await rejection(
      requestBackendServicesToken({
        ...net,
        tokenUrl: emr.tokenUrl,
        clientId: setup === 'otherClient' ? 'someone-else' : CLIENT_ID,
        privateKeyPem: keys.RS384.privateKeyPem,
        keyId: 'key-1',
        scope: 'system/*.read',
        ...(setup === 'oldClock' && { clock: () => new Date(Date.now() - 10 * 60_000) }),
      }),
    );
    expect(error.code).toBe('UNPROCESSABLE');
  });

  it.each([
    {
      name: 'an EC P-256 key',
      pem: () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
      message: 'The SMART private key must be an RSA key (RS384) or an EC P-384 key (ES384)',
    },
    {
      name: 'an Ed25519 key',
      pem: () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }),
      message: 'The SMART private key must be an RSA key (RS384) or an EC P-384 key (ES384)',
    },
    {
      name: 'a PKCS#1 RSA key',
      pem: () =>
        generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }),
      message: /must be an unencrypted PKCS#8 PEM/,
    },
  ])('refuses $name before any network call', async ({ pem, message }) => {
    emr = await startFakeEmr({ clientId: CLIENT_ID, publicKeyPem: keys.RS384.publicKeyPem });
    await expect(
      requestBackendServicesToken({
        ...net,
        tokenUrl: emr.tokenUrl,
        clientId: CLIENT_ID,
        privateKeyPem: String(pem()),
        keyId: 'key-1',
        scope: 'system/*.read',
      }),
    ).rejects.toThrow(message);
    expect(emr.requests.total).toBe(0);
  });

  it('fails with TRANSPORT_FAILED when the token endpoint hangs', async () => {
    emr = await startFakeEmr({ clientId: CLIENT_ID, publicKeyPem: keys.RS384.publicKeyPem });
    emr.failNext('/oauth/token', 'hang');
    const error = await rejection(
      requestBackendServicesToken({
        ...net,
        tokenUrl: emr.tokenUrl,
        clientId: CLIENT_ID,
        privateKeyPem: keys.RS384.privateKeyPem,
        keyId: 'key-1',
        scope: 'system/*.read',
        timeoutMs: 200,
      }),
    );
    expect({ code: error.code, message: error.message }).toEqual({ code: 'TRANSPORT_FAILED', message: NEUTRAL });
  });
});
