import { afterEach, describe, expect, it } from 'vitest';
import { startFakeEmr, type FakeEmr } from '@/test/fakes/fake-emr';
import { startScriptedServer, type ScriptedServer } from '@/test/fakes/scripted-server';
import { AppError } from '@/lib/errors';
import { createEgress } from '@/lib/outbound/egress';
import { discoverSmartConfiguration } from './smart-configuration';

const egress = createEgress({ mode: 'sandbox', allowedOrigins: [] });
const NEUTRAL = 'The EMR could not be reached; try again later';

let emr: FakeEmr | undefined;
let scripted: ScriptedServer | undefined;
afterEach(async () => {
  await emr?.close();
  await scripted?.close();
  emr = undefined;
  scripted = undefined;
});

describe('discoverSmartConfiguration', () => {
  it('reads the endpoints, capabilities and PKCE methods from the well-known document', async () => {
    emr = await startFakeEmr();
    const config = await discoverSmartConfiguration(emr.fhirBaseUrl, { egress });
    expect(config).toEqual({
      authorizationEndpoint: emr.authorizeUrl,
      tokenEndpoint: emr.tokenUrl,
      capabilities: expect.arrayContaining(['launch-standalone', 'client-public']),
      codeChallengeMethods: ['S256'],
    });
    expect(emr.requests.byPath).toEqual({ '/fhir/.well-known/smart-configuration': 1 });
  });

  it('accepts a FHIR base URL with a trailing slash', async () => {
    emr = await startFakeEmr();
    await expect(discoverSmartConfiguration(`${emr.fhirBaseUrl}/`, { egress })).resolves.toMatchObject({
      tokenEndpoint: emr.tokenUrl,
    });
  });

  it.each([
    {
      name: 'does not offer S256',
      overrides: { code_challenge_methods_supported: ['plain'] },
      problem: 'no PKCE S256',
    },
    {
      name: 'omits the PKCE methods',
      overrides: { code_challenge_methods_supported: undefined },
      problem: 'no PKCE S256',
    },
    {
      name: 'names a cleartext authorization endpoint off loopback',
      overrides: { authorization_endpoint: 'http://emr.example/authorize' },
      problem: 'insecure or invalid authorization_endpoint',
    },
    {
      name: 'names a relative token endpoint',
      overrides: { token_endpoint: '/oauth/token' },
      problem: 'insecure or invalid token_endpoint',
    },
    {
      name: 'has no token endpoint',
      overrides: { token_endpoint: undefined },
      problem: 'not a SMART configuration',
    },
  ])(
    'refuses a configuration that $name, with the neutral message and the problem in the log',
    async ({ overrides, problem }) => {
      emr = await startFakeEmr({ smartConfigurationOverrides: overrides });
      const error = await discoverSmartConfiguration(emr.fhirBaseUrl, { egress }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: 'TRANSPORT_FAILED',
        message: NEUTRAL,
        cause: { purpose: 'emr', reason: 'invalid-body', problem },
      });
    },
  );

  it.each([
    { failure: 500 as const, timeoutMs: 5_000, cause: { reason: 'status', status: 500 } },
    { failure: 'hang' as const, timeoutMs: 200, cause: { reason: 'timeout' } },
  ])('fails with the neutral TRANSPORT_FAILED when the EMR answers $failure', async ({ failure, timeoutMs, cause }) => {
    emr = await startFakeEmr();
    emr.failNext('/fhir/.well-known/smart-configuration', failure);
    await expect(discoverSmartConfiguration(emr.fhirBaseUrl, { egress, timeoutMs })).rejects.toMatchObject({
      code: 'TRANSPORT_FAILED',
      message: NEUTRAL,
      cause,
    });
  });

  it('fails with TRANSPORT_FAILED when the server has no SMART configuration', async () => {
    emr = await startFakeEmr();
    await expect(discoverSmartConfiguration(`${emr.baseUrl}/other`, { egress })).rejects.toMatchObject({
      code: 'TRANSPORT_FAILED',
      message: NEUTRAL,
      cause: { reason: 'status', status: 404 },
    });
  });

  it('fails with TRANSPORT_FAILED on a body that is not JSON', async () => {
    scripted = await startScriptedServer();
    scripted.answer('/fhir/.well-known/smart-configuration', { status: 200, body: '<html>maintenance</html>' });
    await expect(discoverSmartConfiguration(`${scripted.origin}/fhir`, { egress })).rejects.toMatchObject({
      code: 'TRANSPORT_FAILED',
      message: NEUTRAL,
      cause: { reason: 'invalid-body', problem: 'not JSON' },
    });
  });

  it.each([
    'http://emr.example/fhir',
    'ftp://emr.example/fhir',
    'emr.example/fhir',
    'https://user:pw@emr.example/fhir',
  ])('refuses the FHIR base %s without any network call', async (fhirBaseUrl) => {
    const lookups: string[] = [];
    const recording = createEgress({
      mode: 'sandbox',
      allowedOrigins: [],
      resolve: async (host) => (lookups.push(host), []),
    });
    await expect(discoverSmartConfiguration(fhirBaseUrl, { egress: recording })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'The FHIR base URL must be an absolute https URL',
    });
    expect(lookups).toEqual([]);
  });
});
