import { afterEach, describe, expect, it } from 'vitest';
import { startFakeEmr, type FakeEmr } from '@/test/fakes/fake-emr';
import { buildAuthorizeUrl } from './authorize-url';
import { createPkcePair, randomState } from './pkce';
import { createEgress } from '@/lib/outbound/egress';
import { discoverSmartConfiguration } from './smart-configuration';

const SCOPE = 'launch/patient patient/*.read offline_access';
const REDIRECT_URI = 'https://app.example/api/emr-sync/callback';

let emr: FakeEmr | undefined;
afterEach(async () => {
  await emr?.close();
  emr = undefined;
});

describe('buildAuthorizeUrl', () => {
  it('sends exactly the SMART App Launch v2 authorization request parameters', () => {
    const url = new URL(
      buildAuthorizeUrl({
        authorizationEndpoint: 'https://emr.example/oauth2/authorize',
        clientId: 'client-123',
        redirectUri: REDIRECT_URI,
        scope: SCOPE,
        state: 'state-abc',
        codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        aud: 'https://emr.example/fhir/R4',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://emr.example/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'client-123',
      redirect_uri: REDIRECT_URI,
      scope: SCOPE,
      state: 'state-abc',
      aud: 'https://emr.example/fhir/R4',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    expect([...url.searchParams.keys()]).toHaveLength(8);
  });

  it('keeps a query the endpoint already carries, and our parameters win over it', () => {
    const url = new URL(
      buildAuthorizeUrl({
        authorizationEndpoint: 'https://emr.example/authorize?tenant=north&response_type=token',
        clientId: 'c',
        redirectUri: REDIRECT_URI,
        scope: SCOPE,
        state: 's',
        codeChallenge: 'x'.repeat(43),
        aud: 'https://emr.example/fhir',
      }),
    );
    expect(url.searchParams.get('tenant')).toBe('north');
    expect(url.searchParams.getAll('response_type')).toEqual(['code']);
  });

  it('refuses an empty state or challenge', () => {
    const input = {
      authorizationEndpoint: 'https://emr.example/authorize',
      clientId: 'c',
      redirectUri: REDIRECT_URI,
      scope: SCOPE,
      state: 's',
      codeChallenge: 'x'.repeat(43),
      aud: 'https://emr.example/fhir',
    };
    expect(() => buildAuthorizeUrl({ ...input, state: '' })).toThrow('buildAuthorizeUrl: state is required');
    expect(() => buildAuthorizeUrl({ ...input, codeChallenge: '' })).toThrow(
      'buildAuthorizeUrl: codeChallenge is required',
    );
  });

  it('is accepted by the EMR, which redirects the browser back with a code and the same state', async () => {
    emr = await startFakeEmr({ clientId: 'client-123' });
    const { authorizationEndpoint } = await discoverSmartConfiguration(emr.fhirBaseUrl, {
      egress: createEgress({ mode: 'sandbox', allowedOrigins: [] }),
    });
    const state = randomState();
    const url = buildAuthorizeUrl({
      authorizationEndpoint,
      clientId: 'client-123',
      redirectUri: REDIRECT_URI,
      scope: SCOPE,
      state,
      codeChallenge: createPkcePair().codeChallenge,
      aud: emr.fhirBaseUrl,
    });

    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.origin + location.pathname).toBe(REDIRECT_URI);
    expect(location.searchParams.get('state')).toBe(state);
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(location.searchParams.get('error')).toBeNull();
  });

  it('is refused by the EMR when aud names another server', async () => {
    emr = await startFakeEmr({ clientId: 'client-123' });
    const url = buildAuthorizeUrl({
      authorizationEndpoint: emr.authorizeUrl,
      clientId: 'client-123',
      redirectUri: REDIRECT_URI,
      scope: SCOPE,
      state: 'st',
      codeChallenge: createPkcePair().codeChallenge,
      aud: 'https://other.example/fhir',
    });
    const response = await fetch(url, { redirect: 'manual' });
    const location = new URL(response.headers.get('location') ?? '');
    expect(Object.fromEntries(location.searchParams)).toEqual({ error: 'invalid_request', state: 'st' });
  });
});
