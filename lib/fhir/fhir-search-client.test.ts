import { afterEach, describe, expect, it } from 'vitest';
import { startFakeEmr, type FakeEmr } from '@/test/fakes/fake-emr';
import { rejection } from '@/test/support/rejection';
import { startScriptedServer, type ScriptedServer } from '@/test/fakes/scripted-server';
import { createEgress } from '@/lib/outbound/egress';
import { searchAll } from './fhir-search-client';

const API_KEY = 'partner-key-for-tests';
const net = {
  egress: createEgress({ mode: 'sandbox', allowedOrigins: [] }),
  target: 'operator' as const,
  purpose: 'emr' as const,
};
const NEUTRAL = 'The EMR could not be reached; try again later';

let scripted: ScriptedServer | undefined;
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
});
/** A FHIR server answering one fixed body to every Patient search. */
async function answering(body: string): Promise<string> {
  scripted = await startScriptedServer();
  scripted.answer('/fhir/Patient', { status: 200, body });
  return `${scripted.origin}/fhir`;
}

let emr: FakeEmr | undefined;
afterEach(async () => {
  await emr?.close();
  emr = undefined;
});

async function start(): Promise<FakeEmr> {
  emr = await startFakeEmr({ apiKey: API_KEY });
  return emr;
}

describe('searchAll', () => {
  it('follows next links until the last page, asking for FHIR JSON each time', async () => {
    const fake = await start();
    const observations = await searchAll({
      ...net,
      baseUrl: fake.fhirBaseUrl,
      resourceType: 'Observation',
      params: { _count: '2' },
      accessToken: API_KEY,
    });

    expect(observations.map((o) => o.id)).toEqual(['obs-1', 'obs-2', 'obs-3', 'obs-4', 'obs-5', 'obs-6']);
    expect(observations[0]).toMatchObject({
      resourceType: 'Observation',
      meta: { lastUpdated: '2024-01-10T10:20:00Z', versionId: '1' },
      subject: { reference: 'Patient/pat-1' },
    });
    expect(fake.requests.byPath['/fhir/Observation']).toBe(3);
    expect(fake.receivedSearches.map((s) => s.accept)).toEqual(Array(3).fill('application/fhir+json'));
    expect(fake.receivedSearches.map((s) => s.query.get('_offset'))).toEqual([null, '2', '4']);
  });

  it('sends repeated parameters so both _lastUpdated bounds apply', async () => {
    const fake = await start();
    const observations = await searchAll({
      ...net,
      baseUrl: fake.fhirBaseUrl,
      resourceType: 'Observation',
      params: { _lastUpdated: ['ge2024-02-15T10:00:00Z', 'le2024-05-01T00:00:00+00:00'], _count: '1' },
      accessToken: API_KEY,
    });

    expect(observations.map((o) => o.id)).toEqual(['obs-2', 'obs-3', 'obs-4']);
    expect(fake.receivedSearches[0]?.query.getAll('_lastUpdated')).toEqual([
      'ge2024-02-15T10:00:00Z',
      'le2024-05-01T00:00:00+00:00',
    ]);
  });

  it('returns an empty list when nothing matches', async () => {
    const fake = await start();
    await expect(
      searchAll({
        ...net,
        baseUrl: fake.fhirBaseUrl,
        resourceType: 'Condition',
        params: { _lastUpdated: 'ge2030-01-01T00:00:00Z' },
        accessToken: API_KEY,
      }),
    ).resolves.toEqual([]);
  });

  it('refuses a next link to another origin and never sends the token there', async () => {
    const fake = await start();
    // Same server, other origin: even that is refused, as the guard compares origins, not addresses.
    fake.setNextLinkOrigin(fake.baseUrl.replace('127.0.0.1', 'localhost'));
    const error = await rejection(
      searchAll({
        ...net,
        baseUrl: fake.fhirBaseUrl,
        resourceType: 'Observation',
        params: { _count: '2' },
        accessToken: API_KEY,
      }),
    );
    expect({ code: error.code, message: error.message }).toEqual({ code: 'TRANSPORT_FAILED', message: NEUTRAL });
    expect(error.options.cause).toMatchObject({ reason: 'invalid-body', problem: 'next link to another origin' });
    expect(fake.requests.total).toBe(1);
  });

  it('stops with TRANSPORT_FAILED when the results run past maxPages', async () => {
    const fake = await start();
    const error = await rejection(
      searchAll({
        ...net,
        baseUrl: fake.fhirBaseUrl,
        resourceType: 'Observation',
        params: { _count: '1' },
        accessToken: API_KEY,
        maxPages: 3,
      }),
    );
    expect({ code: error.code, message: error.message }).toEqual({ code: 'TRANSPORT_FAILED', message: NEUTRAL });
    expect(error.options.cause).toMatchObject({ reason: 'invalid-body', problem: 'more than 3 pages' });
    expect(fake.requests.byPath['/fhir/Observation']).toBe(3);
  });

  it('accepts exactly maxPages pages', async () => {
    const fake = await start();
    const observations = await searchAll({
      ...net,
      baseUrl: fake.fhirBaseUrl,
      resourceType: 'Observation',
      params: { _count: '2' },
      accessToken: API_KEY,
      maxPages: 3,
    });
    expect(observations).toHaveLength(6);
  });

  it.each([
    { failure: 500 as const, timeoutMs: 5_000, cause: { reason: 'status', status: 500 } },
    { failure: 'hang' as const, timeoutMs: 200, cause: { reason: 'timeout' } },
  ])(
    'fails with the neutral TRANSPORT_FAILED when the server answers $failure',
    async ({ failure, timeoutMs, cause }) => {
      const fake = await start();
      fake.failNext('/fhir/Patient', failure);
      const error = await rejection(
        searchAll({
          ...net,
          baseUrl: fake.fhirBaseUrl,
          resourceType: 'Patient',
          params: {},
          accessToken: API_KEY,
          timeoutMs,
        }),
      );
      expect({ code: error.code, message: error.message }).toEqual({ code: 'TRANSPORT_FAILED', message: NEUTRAL });
      expect(error.options.cause).toMatchObject(cause);
    },
  );

  it('fails with TRANSPORT_FAILED when the bearer token is refused', async () => {
    const fake = await start();
    const error = await rejection(
      searchAll({ ...net, baseUrl: fake.fhirBaseUrl, resourceType: 'Patient', params: {}, accessToken: 'wrong' }),
    );
    expect({ code: error.code, message: error.message }).toEqual({ code: 'TRANSPORT_FAILED', message: NEUTRAL });
    expect(error.options.cause).toMatchObject({ reason: 'status', status: 401 });
  });

  it.each([
    { name: 'a body that is not JSON', body: '<html>down</html>', problem: 'not JSON' },
    {
      name: 'a bundle of another type',
      body: '{"resourceType":"Bundle","type":"collection"}',
      problem: 'not a searchset Bundle',
    },
    {
      name: 'a resource without an id',
      body: '{"resourceType":"Bundle","type":"searchset","entry":[{"resource":{"resourceType":"Patient"}}]}',
      problem: 'not a searchset Bundle',
    },
    {
      name: 'an OperationOutcome',
      body: '{"resourceType":"OperationOutcome","issue":[]}',
      problem: 'not a searchset Bundle',
    },
  ])('fails with the neutral TRANSPORT_FAILED on $name', async ({ body, problem }) => {
    const error = await rejection(
      searchAll({ ...net, baseUrl: await answering(body), resourceType: 'Patient', params: {} }),
    );
    expect({ code: error.code, message: error.message }).toEqual({ code: 'TRANSPORT_FAILED', message: NEUTRAL });
    expect(error.options.cause).toMatchObject({ reason: 'invalid-body', problem });
  });

  it('keeps only matches of the requested type and de-duplicates repeated resources', async () => {
    const bundle = {
      resourceType: 'Bundle',
      type: 'searchset',
      entry: [
        { resource: { resourceType: 'Patient', id: 'a', meta: { versionId: '1' } }, search: { mode: 'match' } },
        { resource: { resourceType: 'Organization', id: 'org' }, search: { mode: 'include' } },
        { resource: { resourceType: 'OperationOutcome', id: 'oo' }, search: { mode: 'outcome' } },
        { resource: { resourceType: 'Patient', id: 'a', meta: { versionId: '2' } } },
      ],
    };
    const resources = await searchAll({
      ...net,
      baseUrl: await answering(JSON.stringify(bundle)),
      resourceType: 'Patient',
      params: {},
    });
    expect(resources).toEqual([{ resourceType: 'Patient', id: 'a', meta: { versionId: '2' } }]);
  });

  it('refuses a next link that loops back to a page already read', async () => {
    scripted = await startScriptedServer();
    const baseUrl = `${scripted.origin}/fhir`;
    scripted.answer('/fhir/Patient', {
      status: 200,
      body: JSON.stringify({
        resourceType: 'Bundle',
        type: 'searchset',
        link: [{ relation: 'next', url: `${baseUrl}/Patient` }],
      }),
    });
    const error = await rejection(searchAll({ ...net, baseUrl, resourceType: 'Patient', params: {} }));
    expect(error.message).toBe(NEUTRAL);
    expect(error.options.cause).toMatchObject({ reason: 'invalid-body', problem: 'next link loops' });
  });

  it.each([
    {
      baseUrl: 'http://emr.example/fhir',
      resourceType: 'Patient',
      message: 'searchAll: baseUrl must be an https URL without credentials, query or fragment',
    },
    {
      baseUrl: 'https://emr.example/fhir',
      resourceType: '../admin',
      message: 'searchAll: invalid resource type "../admin"',
    },
  ])('refuses $baseUrl / $resourceType before any network call', async ({ baseUrl, resourceType, message }) => {
    let lookups = 0;
    const counting = createEgress({ mode: 'sandbox', allowedOrigins: [], resolve: async () => (lookups++, []) });
    await expect(
      searchAll({ ...net, egress: counting, target: 'tenant', baseUrl, resourceType, params: {} }),
    ).rejects.toThrow(message);
    expect(lookups).toBe(0);
  });
});
