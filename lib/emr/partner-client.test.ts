import { afterEach, describe, expect, it } from 'vitest';
import { startFakeEmr, type FakeEmr } from '@/test/fakes/fake-emr';
import { SYNC_RESOURCE_TYPES } from '@/lib/fhir/types';
import { rejection } from '@/test/support/rejection';
import { createEgress } from '@/lib/outbound/egress';
import { pullPartnerResources } from './partner-client';

const API_KEY = 'partner-secret-key';
const ACCOUNT = 'acct-northside-42';
const net = { egress: createEgress({ mode: 'sandbox', allowedOrigins: [] }), accountId: ACCOUNT };
const NEUTRAL = 'The partner API could not be reached; try again later';

let emr: FakeEmr | undefined;
afterEach(async () => {
  await emr?.close();
  emr = undefined;
});

const ids = (result: Record<string, Array<{ id: string }>>) =>
  Object.fromEntries(Object.entries(result).map(([type, resources]) => [type, resources.map((r) => r.id)]));

describe('pullPartnerResources', () => {
  it('returns all six resource types updated in the range, following next links', async () => {
    emr = await startFakeEmr({ apiKey: API_KEY, pageSize: 2 });
    const result = await pullPartnerResources({
      ...net,
      baseUrl: emr.fhirBaseUrl,
      apiKey: API_KEY,
      from: '2024-01-01T00:00:00Z',
      to: '2024-12-31T23:59:59Z',
    });

    expect(Object.keys(result)).toEqual([...SYNC_RESOURCE_TYPES]);
    expect(ids(result)).toEqual({
      Patient: ['pat-1', 'pat-2'],
      Encounter: ['enc-1', 'enc-2', 'enc-3', 'enc-4'],
      Observation: ['obs-1', 'obs-2', 'obs-3', 'obs-4', 'obs-5', 'obs-6'],
      Condition: ['cond-1', 'cond-2', 'cond-3'],
      MedicationRequest: ['medrx-1', 'medrx-2', 'medrx-3'],
      AllergyIntolerance: ['allergy-1', 'allergy-2'],
    });
    // Observation needed three pages of two.
    expect(emr.requests.byPath['/fhir/Observation']).toBe(3);
    const firstPages = emr.receivedSearches.filter((s) => !s.query.has('_offset'));
    expect(firstPages.map((s) => s.path)).toEqual(SYNC_RESOURCE_TYPES.map((t) => `/fhir/${t}`));
    for (const search of firstPages) {
      expect(search.query.getAll('_lastUpdated')).toEqual(['ge2024-01-01T00:00:00Z', 'le2024-12-31T23:59:59Z']);
    }
    // Every request, next pages included, names the clinic's partner account.
    expect(emr.receivedSearches.map((s) => s.partnerAccount)).toEqual(Array(emr.receivedSearches.length).fill(ACCOUNT));
  });

  it('honours the range bounds, offsets included', async () => {
    emr = await startFakeEmr({ apiKey: API_KEY });
    const result = await pullPartnerResources({
      ...net,
      baseUrl: emr.fhirBaseUrl,
      apiKey: API_KEY,
      from: '2024-03-02T06:00:00-05:00',
      to: '2024-06-01T00:00:00+00:00',
    });
    expect(ids(result)).toEqual({
      Patient: [],
      Encounter: ['enc-2', 'enc-3'],
      Observation: ['obs-3', 'obs-4', 'obs-5'],
      Condition: ['cond-2'],
      MedicationRequest: ['medrx-2'],
      AllergyIntolerance: [],
    });
  });

  it('fails with TRANSPORT_FAILED when the partner refuses the key', async () => {
    emr = await startFakeEmr({ apiKey: API_KEY });
    const error = await rejection(
      pullPartnerResources({
        ...net,
        baseUrl: emr.fhirBaseUrl,
        apiKey: 'not-the-key',
        from: '2024-01-01T00:00:00Z',
        to: '2024-12-31T00:00:00Z',
      }),
    );
    expect(error).toMatchObject({
      code: 'TRANSPORT_FAILED',
      message: NEUTRAL,
      cause: { purpose: 'partner', reason: 'status', status: 401 },
    });
    expect(error.message).not.toContain('not-the-key');
    expect(emr.requests.total).toBe(1);
  });

  it('fails as a whole when one type fails part-way', async () => {
    emr = await startFakeEmr({ apiKey: API_KEY });
    emr.failNext('/fhir/Condition', 500);
    await expect(
      pullPartnerResources({
        ...net,
        baseUrl: emr.fhirBaseUrl,
        apiKey: API_KEY,
        from: '2024-01-01T00:00:00Z',
        to: '2024-12-31T00:00:00Z',
      }),
    ).rejects.toMatchObject({ code: 'TRANSPORT_FAILED', message: NEUTRAL, cause: { reason: 'status', status: 500 } });
  });

  it.each([
    {
      from: '2024-01-01',
      to: '2024-12-31T00:00:00Z',
      issues: [{ path: 'from', message: 'Must be an ISO-8601 instant' }],
    },
    { from: '2024-01-01T00:00:00Z', to: 'tomorrow', issues: [{ path: 'to', message: 'Must be an ISO-8601 instant' }] },
    {
      from: '2024-12-31T00:00:00Z',
      to: '2024-01-01T00:00:00Z',
      issues: [{ path: 'from', message: 'Must not be after to' }],
    },
  ])('refuses the range $from..$to without calling the partner', async ({ from, to, issues }) => {
    emr = await startFakeEmr({ apiKey: API_KEY });
    const error = await rejection(
      pullPartnerResources({ ...net, baseUrl: emr.fhirBaseUrl, apiKey: API_KEY, from, to }),
    );
    expect({ code: error.code, message: error.message, issues: error.options.issues }).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Invalid partner pull range',
      issues,
    });
    expect(emr.requests.total).toBe(0);
  });
});
