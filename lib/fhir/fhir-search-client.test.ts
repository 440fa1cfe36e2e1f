import { afterEach, describe, expect, it } from 'vitest';
import { startFakeEmr, type FakeEmr } from '@/test/fakes/fake-emr';
import { rejection } from '@/test/support/rejection';
import { searchAll } from './fhir-search-client';

const API_KEY = 'partner-key-for-tests';

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
      searchAll({ baseUrl: fake.fhirBaseUrl, resourceType: 'Observation', params: { _count: '2' }, accessToken: API_KEY }),
    );
    expect({ code: error.code, message: error.message }).toEqual({
      code: 'TRANSPORT_FAILED',
      message: 'The FHIR server returned a next link to another origin',
    });
    expect(fake.requests.total).toBe(1);
  });

  it('stops with TRANSPORT_FAILED when the results run past maxPages', async () => {
    const fake = await start();
    const error = await rejection(
      searchAll({
        baseUrl: fake.fhirBaseUrl,
        resourceType: 'Observation',
        params: { _count: '1' },
        accessToken: API_KEY,
        maxPages: 3,
      }),
    );
    expect({ code: error.code, message: error.message }).toEqual({
      code: 'TRANSPORT_FAILED',
      message: 'The FHIR server returned more than 3 pages of results',
    });
    expect(fake.requests.byPath['/fhir/Observation']).toBe(3);
  });

  it('accepts exactly maxPages pages', async () => {
    const fake = await start();
    const observations = await searchAll({
      baseUrl: fake.fhirBaseUrl,
      resourceType: 'Observation',
      params: { _count: '2' },
      accessToken: API_KEY,
      maxPages: 3,
    });
    expect(observations).toHaveLength(6);
  });

  it.each([
    { failure: 500 as const, timeoutMs: 5_000, message: 'The FHIR search failed with HTTP 500' },
    { failure: 'hang' as const, timeoutMs: 200, message: 'The FHIR server could not be reached' },
  ])('fails with TRANSPORT_FAILED when the server answers $failure', async ({ failure, timeoutMs, message }) => {
    const fake = await start();
    fake.failNext('/fhir/Patient', failure);
    const error = await rejection(
      searchAll({ baseUrl: fake.fhirBaseUrl, resourceType: 'Patient', params: {}, accessToken: API_KEY, timeoutMs }),
    );
    expect({ code: error.code, message: error.message }).toEqual({ code: 'TRANSPORT_FAILED', message });
  });

  it('fails with TRANSPORT_FAILED when the bearer token is refused', async () => {
    const fake = await start();
    const error = await rejection(
      searchAll({ baseUrl: fake.fhirBaseUrl, resourceType: 'Patient', params: {}, accessToken: 'wrong' }),
    );
    expect({ code: error.code, message: error.message }).toEqual({
      code: 'TRANSPORT_FAILED',
      message: 'The FHIR search failed with HTTP 401',
    });
  });

  it.each([
    { name: 'a body that is not JSON', body: '<html>down</html>', message: 'The FHIR server returned an unreadable body' },
    { name: 'a bundle of another type', body: '{"resourceType":"Bundle","type":"collection"}', message: 'The FHIR server returned an invalid searchset Bundle' },
    { name: 'a resource without an id', body: '{"resourceType":"Bundle","type":"searchset","entry":[{"resource":{"resourceType":"Patient"}}]}', message: 'The FHIR server returned an invalid searchset Bundle' },
    { name: 'an OperationOutcome', body: '{"resourceType":"OperationOutcome","issue":[]}', message: 'The FHIR server returned an invalid searchset Bundle' },
  ])('fails with TRANSPORT_FAILED on $name', async ({ body, message }) => {
    const fetchStub = (async () => new Response(body, { status: 200 })) as typeof fetch;
    const error = await rejection(
      searchAll({ baseUrl: 'https://emr.example/fhir', resourceType: 'Patient', params: {}, fetch: fetchStub }),
    );
    expect({ code: error.code, message: error.message }).toEqual({ code: 'TRANSPORT_FAILED', message });
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
    const fetchStub = (async () => new Response(JSON.stringify(bundle))) as typeof fetch;
    const resources = await searchAll({ baseUrl: 'https://emr.example/fhir', resourceType: 'Patient', params: {}, fetch: fetchStub });
    expect(resources).toEqual([{ resourceType: 'Patient', id: 'a', meta: { versionId: '2' } }]);
  });

  it('refuses a next link that loops back to a page already read', async () => {
    const bundle = {
      resourceType: 'Bundle',
      type: 'searchset',
      link: [{ relation: 'next', url: 'https://emr.example/fhir/Patient' }],
    };
    const fetchStub = (async () => new Response(JSON.stringify(bundle))) as typeof fetch;
    const error = await rejection(
      searchAll({ baseUrl: 'https://emr.example/fhir', resourceType: 'Patient', params: {}, fetch: fetchStub }),
    );
    expect(error.message).toBe('The FHIR server returned a next link that loops');
  });

  it.each([
    { baseUrl: 'http://emr.example/fhir', resourceType: 'Patient', message: 'searchAll: baseUrl must be an https URL without credentials, query or fragment' },
    { baseUrl: 'https://emr.example/fhir', resourceType: '../admin', message: 'searchAll: invalid resource type "../admin"' },
  ])('refuses $baseUrl / $resourceType before any network call', async ({ baseUrl, resourceType, message }) => {
    let calls = 0;
    const countingFetch = (async () => {
      calls += 1;
      return new Response('{}');
    }) as typeof fetch;
    await expect(searchAll({ baseUrl, resourceType, params: {}, fetch: countingFetch })).rejects.toThrow(message);
    expect(calls).toBe(0);
  });
});
