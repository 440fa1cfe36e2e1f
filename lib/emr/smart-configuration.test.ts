import { afterEach, describe, expect, it } from 'vitest';
import { startFakeEmr, type FakeEmr } from '@/test/fakes/fake-emr';
import { AppError } from '@/lib/http/errors';
import { discoverSmartConfiguration } from './smart-configuration';

let emr: FakeEmr | undefined;
afterEach(async () => {
  await emr?.close();
  emr = undefined;
});

describe('discoverSmartConfiguration', () => {
  it('reads the endpoints, capabilities and PKCE methods from the well-known document', async () => {
    emr = await startFakeEmr();
    const config = await discoverSmartConfiguration(emr.fhirBaseUrl);
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
    await expect(discoverSmartConfiguration(`${emr.fhirBaseUrl}/`)).resolves.toMatchObject({
      tokenEndpoint: emr.tokenUrl,
    });
  });

  it.each([
    {
      name: 'does not offer S256',
      overrides: { code_challenge_methods_supported: ['plain'] },
      message: "The EMR's SMART configuration does not support PKCE S256",
    },
    {
      name: 'omits the PKCE methods',
      overrides: { code_challenge_methods_supported: undefined },
      message: "The EMR's SMART configuration does not support PKCE S256",
    },
    {
      name: 'names a cleartext authorization endpoint off loopback',
      overrides: { authorization_endpoint: 'http://emr.example/authorize' },
      message: "The EMR's SMART configuration has an insecure or invalid authorization_endpoint",
    },
    {
      name: 'names a relative token endpoint',
      overrides: { token_endpoint: '/oauth/token' },
      message: "The EMR's SMART configuration has an insecure or invalid token_endpoint",
    },
    {
      name: 'has no token endpoint',
      overrides: { token_endpoint: undefined },
      message: 'The EMR returned an invalid SMART configuration',
    },
  ])('refuses a configuration that $name', async ({ overrides, message }) => {
    emr = await startFakeEmr({ smartConfigurationOverrides: overrides });
    const error = await discoverSmartConfiguration(emr.fhirBaseUrl).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'TRANSPORT_FAILED', message });
  });

  it.each([
    { failure: 500 as const, timeoutMs: 5_000, message: 'The EMR SMART configuration request failed with HTTP 500' },
    { failure: 'hang' as const, timeoutMs: 200, message: 'The EMR SMART configuration could not be fetched' },
  ])('fails with TRANSPORT_FAILED when the EMR answers $failure', async ({ failure, timeoutMs, message }) => {
    emr = await startFakeEmr();
    emr.failNext('/fhir/.well-known/smart-configuration', failure);
    await expect(discoverSmartConfiguration(emr.fhirBaseUrl, { timeoutMs })).rejects.toMatchObject({
      code: 'TRANSPORT_FAILED',
      message,
    });
  });

  it('fails with TRANSPORT_FAILED when the server has no SMART configuration', async () => {
    emr = await startFakeEmr();
    await expect(discoverSmartConfiguration(`${emr.baseUrl}/other`)).rejects.toMatchObject({
      code: 'TRANSPORT_FAILED',
      message: 'The EMR SMART configuration request failed with HTTP 404',
    });
  });

  it('fails with TRANSPORT_FAILED on a body that is not JSON', async () => {
    const fetchHtml = (async () => new Response('<html>maintenance</html>', { status: 200 })) as typeof fetch;
    await expect(
      discoverSmartConfiguration('https://emr.example/fhir', { fetch: fetchHtml }),
    ).rejects.toMatchObject({ code: 'TRANSPORT_FAILED', message: 'The EMR returned an unreadable SMART configuration' });
  });

  it.each(['http://emr.example/fhir', 'ftp://emr.example/fhir', 'emr.example/fhir', 'https://user:pw@emr.example/fhir'])(
    'refuses the FHIR base %s without any network call',
    async (fhirBaseUrl) => {
      const calls: string[] = [];
      const recordingFetch = (async (input: string | URL | Request) => {
        calls.push(String(input));
        throw new Error('must not be called');
      }) as typeof fetch;
      await expect(discoverSmartConfiguration(fhirBaseUrl, { fetch: recordingFetch })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'The FHIR base URL must be an absolute https URL',
      });
      expect(calls).toEqual([]);
    },
  );
});
