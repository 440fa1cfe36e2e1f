// The FHIR R4 API over HTTP on the embedded store: a CapabilityStatement whose every claim works, read with
// ETag, searchset Bundles with paging and the documented parameters, clinic scoping, and OperationOutcome errors.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedFhirStore } from '@/lib/fhir/embedded-fhir-store';
import { servedId } from '@/lib/fhir/served-resource';
import type { FhirResource } from '@/lib/fhir/types';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createTenant, createUser, TEST_PASSWORD } from '../support/factories';

const TYPES = ['Patient', 'Encounter', 'Observation', 'Condition', 'MedicationRequest', 'AllergyIntolerance'];
// The eligibility pair (issue #23) is this server's own, not pulled: its fixtures sit apart from the EMR's.
const ELIGIBILITY_TYPES = ['CoverageEligibilityRequest', 'CoverageEligibilityResponse'];
const fixtures = (type: string) =>
  JSON.parse(
    fs.readFileSync(
      path.resolve(
        ELIGIBILITY_TYPES.includes(type) ? 'test/fakes/fixtures/eligibility-fhir' : 'test/fakes/fixtures/emr',
        `${type}.json`,
      ),
      'utf8',
    ),
  ) as FhirResource[];
const T0 = new Date('2026-01-01T00:00:00.000Z');
const T1 = new Date('2026-02-01T00:00:00.000Z');

let app: TestApp;
let admin: HttpClient;

beforeAll(async () => {
  app = await startApp();
  admin = await signIn(app, 'admin@northside.test');
  // Seeded through the store itself: Patients stored at T0, everything else at T1.
  await embeddedFhirStore(app.db, { clock: () => T0 }).upsertMany('clinic_north', fixtures('Patient'));
  await embeddedFhirStore(app.db, { clock: () => T1 }).upsertMany(
    'clinic_north',
    [...TYPES.slice(1), ...ELIGIBILITY_TYPES].flatMap(fixtures),
  );
});
afterAll(async () => {
  await app?.stop();
});

const outcome = (
  code: string,
  issueType: string,
  text: string,
  correlationId: string | null,
  fields: Array<{ path: string; message: string }> = [],
) => ({
  resourceType: 'OperationOutcome',
  issue: [
    {
      severity: 'error',
      code: issueType,
      details: { coding: [{ system: 'urn:clinic-revenue-platform:error-code', code }], text },
      diagnostics: `correlationId=${correlationId}`,
    },
    ...fields.map((f) => ({ severity: 'error', code: 'invalid', details: { text: f.message }, expression: [f.path] })),
  ],
});

const ids = (bundle: { entry?: Array<{ resource: { id: string } }> }) => (bundle.entry ?? []).map((e) => e.resource.id);

describe('GET /api/fhir/metadata', () => {
  it('is public and states FHIR 4.0.1, JSON, and exactly the types, interactions, parameters and operations served', async () => {
    const res = await new HttpClient(app.url).get('/api/fhir/metadata');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    expect(res.body).toMatchObject({
      resourceType: 'CapabilityStatement',
      status: 'active',
      kind: 'instance',
      fhirVersion: '4.0.1',
      format: ['application/fhir+json'],
      implementation: { url: `${app.url}/api/fhir` },
      rest: [
        {
          mode: 'server',
          operation: [{ name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export' }],
        },
      ],
    });
    const resources = res.body.rest[0].resource as Array<{
      type: string;
      interaction: Array<{ code: string }>;
      searchParam: Array<{ name: string; type: string }>;
      operation?: unknown[];
    }>;
    // Pulled types, then each eligibility check as FHIR (issue #23), searchable by created too.
    expect(resources.map((r) => r.type)).toEqual([
      ...TYPES,
      'CoverageEligibilityRequest',
      'CoverageEligibilityResponse',
    ]);
    for (const r of resources) {
      expect(r.interaction).toEqual([{ code: 'read' }, { code: 'search-type' }]);
      expect(r.searchParam.map((p) => `${p.name}:${p.type}`)).toEqual(
        r.type === 'Patient'
          ? ['_id:token', '_lastUpdated:date']
          : r.type.startsWith('CoverageEligibility')
            ? ['_id:token', '_lastUpdated:date', 'patient:reference', 'created:date']
            : ['_id:token', '_lastUpdated:date', 'patient:reference'],
      );
    }
    expect(resources[0]!.operation).toEqual([
      { name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/patient-export' },
    ]);
  });

  it('claims nothing that does not work: every interaction and search parameter it lists answers', async () => {
    const statement = (await new HttpClient(app.url).get('/api/fhir/metadata')).body;
    for (const r of statement.rest[0].resource as Array<{ type: string; searchParam: Array<{ name: string }> }>) {
      const sample = fixtures(r.type)[0]!;
      expect((await admin.get(`/api/fhir/${r.type}/${sample.id}`)).status).toBe(200);
      const values: Record<string, string> = {
        _id: sample.id,
        _lastUpdated: 'ge2025-12-31',
        patient: 'pat-1',
        created: 'ge2025-12-31',
      };
      for (const param of r.searchParam) {
        const res = await admin.get(`/api/fhir/${r.type}?${param.name}=${encodeURIComponent(values[param.name]!)}`);
        expect({ type: r.type, param: param.name, status: res.status, resourceType: res.body.resourceType }).toEqual({
          type: r.type,
          param: param.name,
          status: 200,
          resourceType: 'Bundle',
        });
        // A parameter that is applied is echoed in the self link (an ignored one would not be).
        expect(res.body.link[0].url).toContain(`${param.name}=`);
      }
    }
    // A type it does not list is refused.
    const res = await admin.get('/api/fhir/Practitioner');
    expect(res.status).toBe(400);
    expect(res.body.resourceType).toBe('OperationOutcome');
  });
});

describe('GET /api/fhir/{type}/{id}', () => {
  it('reads a resource with its version as ETag and its store meta', async () => {
    const res = await admin.get('/api/fhir/Patient/pat-2');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    expect(res.headers.get('etag')).toBe('W/"1"');
    expect(res.headers.get('last-modified')).toBe(T0.toUTCString());
    const { meta: _meta, ...fixture } = fixtures('Patient')[1]!;
    expect(res.body).toEqual({ ...fixture, meta: { versionId: '1', lastUpdated: T0.toISOString() } });
  });

  it('shows a new version after the content changes', async () => {
    const [, second] = fixtures('Condition');
    await embeddedFhirStore(app.db).upsertMany('clinic_north', [{ ...second!, clinicalStatus: { text: 'resolved' } }]);
    const res = await admin.get('/api/fhir/Condition/cond-2');
    expect(res.headers.get('etag')).toBe('W/"2"');
    expect(res.body).toMatchObject({ clinicalStatus: { text: 'resolved' }, meta: { versionId: '2' } });
  });

  it("answers 404 OperationOutcome for an unknown id and for another clinic's resource", async () => {
    const south = await signIn(app, 'admin@southside.test');
    for (const [client, path] of [
      [admin, '/api/fhir/Patient/nobody'],
      [south, '/api/fhir/Patient/pat-1'],
    ] as const) {
      const res = await client.get(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
      expect(res.body).toEqual(
        outcome('NOT_FOUND', 'not-found', 'No Patient with that id', res.headers.get('x-correlation-id')),
      );
    }
  });

  it('refuses a malformed id with 400 OperationOutcome naming the field', async () => {
    const res = await admin.get(`/api/fhir/Patient/${'x'.repeat(65)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      outcome('VALIDATION_FAILED', 'invalid', 'The request params is not valid', res.headers.get('x-correlation-id'), [
        { path: 'params.id', message: 'A FHIR id: 1-64 letters, digits, "-" or "."' },
      ]),
    );
  });
});

describe('GET /api/fhir/{type}', () => {
  it("answers a searchset Bundle of the clinic's resources with total, full URLs and a self link", async () => {
    const res = await admin.get('/api/fhir/Observation');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      resourceType: 'Bundle',
      type: 'searchset',
      total: 6,
      link: [{ relation: 'self', url: `${app.url}/api/fhir/Observation?_count=50` }],
    });
    expect(res.body.entry[0]).toEqual({
      fullUrl: `${app.url}/api/fhir/Observation/${res.body.entry[0].resource.id}`,
      resource: expect.objectContaining({ resourceType: 'Observation' }),
      search: { mode: 'match' },
    });
    expect(ids(res.body).sort()).toEqual(['obs-1', 'obs-2', 'obs-3', 'obs-4', 'obs-5', 'obs-6']);
    const south = await signIn(app, 'admin@southside.test');
    expect((await south.get('/api/fhir/Observation')).body).toMatchObject({ total: 0 });
  });

  it('pages with _count and next links until every match is seen once', async () => {
    const seen: string[] = [];
    let url: string | undefined = '/api/fhir/Observation?_count=4';
    let pages = 0;
    while (url) {
      const res: { status: number; body: any } = await admin.get(url);
      expect(res.status).toBe(200);
      seen.push(...ids(res.body));
      url = res.body.link.find((l: { relation: string }) => l.relation === 'next')?.url;
      pages += 1;
    }
    expect(pages).toBe(2);
    expect(seen.sort()).toEqual(['obs-1', 'obs-2', 'obs-3', 'obs-4', 'obs-5', 'obs-6']);
  });

  it('caps _count at 100', async () => {
    const res = await admin.get('/api/fhir/Encounter?_count=100000');
    expect(res.body.link[0].url).toBe(`${app.url}/api/fhir/Encounter?_count=100`);
  });

  it('filters by patient, _id and _lastUpdated', async () => {
    expect(ids((await admin.get('/api/fhir/Observation?patient=pat-1')).body).sort()).toEqual([
      'obs-1',
      'obs-4',
      'obs-5',
    ]);
    expect(ids((await admin.get('/api/fhir/AllergyIntolerance?patient=Patient/pat-2')).body)).toEqual(['allergy-2']);
    expect(ids((await admin.get('/api/fhir/Patient?_id=pat-2,nobody')).body)).toEqual(['pat-2']);
    expect((await admin.get('/api/fhir/Patient?_lastUpdated=2026-01-01')).body.total).toBe(2);
    expect((await admin.get('/api/fhir/Patient?_lastUpdated=gt2026-01-01')).body.total).toBe(0);
    expect((await admin.get('/api/fhir/Encounter?_lastUpdated=ge2026-01-15&_lastUpdated=lt2026-03')).body.total).toBe(
      4,
    );
    expect((await admin.get('/api/fhir/Encounter?_count=0')).body).toMatchObject({ total: 4, entry: [] });
  });

  it.each([
    [
      '/api/fhir/Patient?_lastUpdated=yesterday',
      'The search parameter _lastUpdated is not valid',
      [
        {
          path: 'query._lastUpdated',
          message: 'Use a prefix eq, ge, gt, le or lt and a FHIR date or dateTime, e.g. ge2024-03-01',
        },
      ],
    ],
    [
      '/api/fhir/Observation?patient=Patient/a/b',
      'The search parameter patient is not valid',
      [{ path: 'query.patient', message: 'Must be a patient id or Patient/{id}' }],
    ],
    [
      '/api/fhir/Patient?_cursor=forged',
      'The page link is not valid; start the search again',
      [{ path: 'query._cursor', message: 'Not a cursor this server issued' }],
    ],
    [
      '/api/fhir/Patient?_count=-1',
      'The request query is not valid',
      [{ path: 'query._count', message: 'Too small: expected number to be >=0' }],
    ],
  ])('refuses %s with 400 OperationOutcome', async (url, text, fields) => {
    const res = await admin.get(url);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      outcome('VALIDATION_FAILED', 'invalid', text, res.headers.get('x-correlation-id'), fields),
    );
  });

  it('needs patients:read (403 OperationOutcome) and a session (401 from the first gate)', async () => {
    const billing = await signIn(app, 'billing@northside.test');
    for (const url of ['/api/fhir/Patient', '/api/fhir/Patient/pat-1']) {
      const res = await billing.get(url);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(
        outcome(
          'SCOPE_MISSING',
          'forbidden',
          'This action needs the patients:read scope',
          res.headers.get('x-correlation-id'),
        ),
      );
      const anonymous = await new HttpClient(app.url).get(url);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({
        code: 'UNAUTHENTICATED',
        message: 'Sign in to continue',
        correlationId: expect.any(String),
      });
    }
  });
});

describe('resources from two sources', () => {
  it('serves two EHRs that both send Patient/123 as two patients, each Observation pointing at its own', async () => {
    const tenant = await createTenant(app.db, 'TwoSources');
    const client = await signIn(app, (await createUser(app.db, tenant)).email, TEST_PASSWORD);
    const [a, b] = ['https://ehr-a.example/fhir', 'https://ehr-b.example/fhir'];
    for (const [source, family] of [
      [a, 'FromA'],
      [b, 'FromB'],
    ] as const) {
      await embeddedFhirStore(app.db).upsertMany(
        tenant.clinicId,
        [
          { resourceType: 'Patient', id: '123', name: [{ family }] },
          // the absolute form of the same reference, as some EHRs send it
          { resourceType: 'Observation', id: 'o1', status: 'final', subject: { reference: `${source}/Patient/123` } },
        ],
        { sourceBaseUrl: source },
      );
    }
    const patients = await client.get('/api/fhir/Patient');
    expect(patients.body.total).toBe(2);
    expect(
      (patients.body.entry as Array<{ resource: { id: string; name: unknown } }>)
        .map((e) => [e.resource.id, e.resource.name])
        .sort(),
    ).toEqual(
      [
        [servedId(a, '123'), [{ family: 'FromA' }]],
        [servedId(b, '123'), [{ family: 'FromB' }]],
      ].sort(),
    );
    for (const [source, family] of [
      [a, 'FromA'],
      [b, 'FromB'],
    ] as const) {
      const patient = await client.get(`/api/fhir/Patient/${servedId(source, '123')}`);
      expect(patient.body).toMatchObject({
        id: servedId(source, '123'),
        name: [{ family }],
        meta: { source: `${source}/Patient/123` },
      });
      const observations = await client.get(`/api/fhir/Observation?patient=Patient/${servedId(source, '123')}`);
      expect(
        observations.body.entry.map((e: { resource: { id: string; subject: unknown } }) => [
          e.resource.id,
          e.resource.subject,
        ]),
      ).toEqual([[servedId(source, 'o1'), { reference: `Patient/${servedId(source, '123')}` }]]);
    }
    expect((await client.get('/api/fhir/Patient/123')).status).toBe(404);
  });
});
