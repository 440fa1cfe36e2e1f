// FHIR Bulk Data export over HTTP: kick-off (202 + Content-Location), a durable job worked outside the request by
// the leased worker, 202 IN_PROGRESS while it runs, the manifest and authenticated NDJSON files, cancellation,
// recovery of a job whose worker died, giving up after the attempt limit, and clinic scoping throughout.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedFhirStore } from '@/lib/fhir/embedded-fhir-store';
import { servedId } from '@/lib/fhir/served-resource';
import type { FhirResource } from '@/lib/fhir/types';
import { keyedJobId } from '@/lib/background/keyed-job-id';
import { startApp, type TestApp } from '../support/app';
import { findKeyedJob, insertClaimedJob } from '../support/jobs';
import { stepUpHeader } from '../support/step-up-claim';
import { HttpClient, signIn } from '../support/http';
import { createTenant, createUser, TEST_PASSWORD } from '../support/factories';

const TYPES = ['Patient', 'Encounter', 'Observation', 'Condition', 'MedicationRequest', 'AllergyIntolerance'];
const fixtures = (type: string) =>
  JSON.parse(fs.readFileSync(path.resolve('test/fakes/fixtures/emr', `${type}.json`), 'utf8')) as FhirResource[];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let app: TestApp;
let admin: HttpClient;

beforeAll(async () => {
  app = await startApp();
  admin = await signIn(app, 'admin@northside.test');
  await embeddedFhirStore(app.db, { clock: () => new Date('2026-01-01T00:00:00Z') }).upsertMany(
    'clinic_north',
    TYPES.flatMap(fixtures),
  );
  // One observation about nobody: in a system export, not in the Patient compartment.
  await embeddedFhirStore(app.db, { clock: () => new Date('2026-03-01T00:00:00Z') }).upsertMany('clinic_north', [
    { resourceType: 'Observation', id: 'obs-device', status: 'final' },
  ]);
  await embeddedFhirStore(app.db).upsertMany('clinic_south', [{ resourceType: 'Patient', id: 'south-only' }]);
});
afterAll(async () => {
  await app?.stop();
});

async function kickOff(client: HttpClient, url: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await client.get(url, {
    headers: { prefer: 'respond-async', accept: 'application/fhir+json', ...headers },
  });
  expect(res.status).toBe(202);
  const location = res.headers.get('content-location')!;
  expect(location).toMatch(new RegExp(`^${app.url}/api/fhir/bulk-status/bx_[A-Za-z0-9_-]{22}$`));
  expect(res.body).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ severity: 'information' }] });
  return location;
}

async function manifestOf(client: HttpClient, statusUrl: string) {
  for (let i = 0; i < 80; i++) {
    const res = await client.get(statusUrl);
    if (res.status === 200) return res;
    expect(res.status).toBe(202);
    await sleep(250);
  }
  throw new Error('the export did not finish');
}

async function filesOf(client: HttpClient, output: Array<{ type: string; url: string; count: number }>) {
  const byType: Record<string, string[]> = {};
  for (const file of output) {
    const res = await client.get(file.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/fhir+ndjson');
    const lines = res.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as FhirResource);
    expect(lines).toHaveLength(file.count);
    expect(lines.every((r) => r.resourceType === file.type)).toBe(true);
    byType[file.type] = [...(byType[file.type] ?? []), ...lines.map((r) => r.id)].sort();
  }
  return byType;
}

function jobRow(clinicId: string, userId: string, overrides: Record<string, unknown> = {}) {
  return {
    id: `bx_test_${randomUUID()}`,
    clinicId,
    userId,
    level: 'system',
    types: ['Patient'],
    status: 'running',
    request: `${app.url}/api/fhir/$export`,
    transactionTime: new Date(),
    correlationId: 'test-job-0001',
    ...overrides,
  };
}

/**
 * An export and its pg-boss job as a worker elsewhere left it: claimed (active) `retryCount` retries in, its last
 * heartbeat `heartbeatAgoSeconds` ago (older than the queue's 10 s: the worker is dead).
 */
async function exportWithJob(
  clinicId: string,
  userId: string,
  work: { retryCount: number; heartbeatAgoSeconds: number; heartbeatSeconds?: number },
) {
  const job = await app.db.bulkExportJob.create({ data: jobRow(clinicId, userId) });
  await insertClaimedJob(app.db, {
    queue: 'bulk-export',
    key: job.id,
    data: { exportId: job.id, clinicId, correlationId: job.correlationId },
    retryCount: work.retryCount,
    retryLimit: 2,
    heartbeatSeconds: work.heartbeatSeconds ?? 10,
    heartbeatAgoSeconds: work.heartbeatAgoSeconds,
    deadLetter: 'bulk-export.dead',
  });
  return job;
}

/** The text of a dead letter's row on Settings → Background work, signed in as the admin in Debian's Chromium. */
async function deadLetterOnScreen(jobId: string): Promise<string> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${app.url}/login`);
    await page.getByLabel('E-mail').fill('admin@northside.test');
    await page.getByLabel('Password').fill('demo-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('signed-in-as').waitFor();
    await page.goto(`${app.url}/settings/background`);
    const row = page.getByTestId(`dead-${jobId}`);
    await row.waitFor({ timeout: 15_000 });
    return (await row.textContent()) ?? '';
  } finally {
    await browser.close();
  }
}

describe('system-level $export', () => {
  it("exports the clinic's resources: 202, then the Bulk Data manifest and NDJSON files", async () => {
    const statusUrl = await kickOff(admin, '/api/fhir/$export');
    const job = await app.db.bulkExportJob.findUniqueOrThrow({ where: { id: statusUrl.split('/').pop()! } });
    expect(job).toMatchObject({
      clinicId: 'clinic_north',
      level: 'system',
      // Every type the store holds: the pulled ones and the eligibility pairs (none here, so no file of them).
      types: [...TYPES, 'CoverageEligibilityRequest', 'CoverageEligibilityResponse'],
      status: expect.stringMatching(/running|completed/),
    });

    const res = await manifestOf(admin, statusUrl);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({
      transactionTime: job.transactionTime.toISOString(),
      request: `${app.url}/api/fhir/$export`,
      requiresAccessToken: true,
      output: TYPES.map((type) => ({
        type,
        url: expect.stringMatching(new RegExp(`^${app.url}/api/fhir/bulk-files/`)),
        count: type === 'Observation' ? 7 : fixtures(type).length,
      })),
      error: [],
      status: 'completed',
    });
    const files = await filesOf(admin, res.body.output);
    expect(files.Patient).toEqual(['pat-1', 'pat-2']);
    expect(files.Observation).toContain('obs-device');
    expect(JSON.stringify(files)).not.toContain('south-only');
  });

  it('honours _type and _since', async () => {
    const res = await manifestOf(
      admin,
      await kickOff(
        admin,
        '/api/fhir/$export?_type=Observation,Patient&_since=2026-02-01T00:00:00Z&_outputFormat=application/fhir%2Bndjson',
      ),
    );
    expect(res.body.output.map((o: { type: string; count: number }) => [o.type, o.count])).toEqual([
      ['Observation', 1],
    ]);
    const request = new URL(res.body.request);
    expect(`${request.origin}${request.pathname}`).toBe(`${app.url}/api/fhir/$export`);
    expect(Object.fromEntries(request.searchParams)).toEqual({
      _type: 'Observation,Patient',
      _since: '2026-02-01T00:00:00Z',
      _outputFormat: 'application/fhir+ndjson',
    });
    expect(await filesOf(admin, res.body.output)).toEqual({ Observation: ['obs-device'] });
  });

  it('answers 202 with Retry-After and the IN_PROGRESS body while the job runs', async () => {
    const user = await app.db.user.findUniqueOrThrow({ where: { email: 'admin@northside.test' } });
    // A worker holds the job and beats: it is mid-run.
    const job = await exportWithJob('clinic_north', user.id, {
      retryCount: 0,
      heartbeatAgoSeconds: 0,
      heartbeatSeconds: 3600,
    });
    try {
      const res = await admin.get(`/api/fhir/bulk-status/${job.id}`);
      expect(res.status).toBe(202);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.headers.get('x-progress')).toBe('exporting');
      expect(res.body).toEqual({
        code: 'IN_PROGRESS',
        message: 'The export is still running',
        correlationId: res.headers.get('x-correlation-id'),
        jobId: job.id,
        retryAfterSeconds: 1,
      });
    } finally {
      await app.db.bulkExportJob.delete({ where: { id: job.id } });
      await app.db.$executeRawUnsafe('DELETE FROM pgboss.job WHERE id = $1::uuid', keyedJobId('bulk-export', job.id));
    }
  });
});

describe('resources from two sources', () => {
  it('exports them under the same served ids as read and search, references rewritten alike', async () => {
    const tenant = await createTenant(app.db, 'TwoSourceExport');
    const client = await signIn(app, (await createUser(app.db, tenant)).email, TEST_PASSWORD);
    const [a, b] = ['https://ehr-a.example/fhir', 'https://ehr-b.example/fhir'];
    for (const source of [a, b]) {
      await embeddedFhirStore(app.db).upsertMany(
        tenant.clinicId,
        [
          { resourceType: 'Patient', id: '123' },
          { resourceType: 'Observation', id: 'o1', status: 'final', subject: { reference: 'Patient/123' } },
        ],
        { sourceBaseUrl: source },
      );
    }
    const res = await manifestOf(client, await kickOff(client, '/api/fhir/$export?_type=Patient,Observation'));
    const files = await filesOf(client, res.body.output);
    expect(files).toEqual({
      Patient: [servedId(a, '123'), servedId(b, '123')].sort(),
      Observation: [servedId(a, 'o1'), servedId(b, 'o1')].sort(),
    });
    const observations = (
      await client.get(res.body.output.find((o: { type: string }) => o.type === 'Observation').url)
    ).text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as FhirResource);
    expect(observations.map((o) => [o.id, o.subject]).sort()).toEqual(
      [
        [servedId(a, 'o1'), { reference: `Patient/${servedId(a, '123')}` }],
        [servedId(b, 'o1'), { reference: `Patient/${servedId(b, '123')}` }],
      ].sort(),
    );
  });
});

describe('Patient-level $export', () => {
  it('exports the Patient compartment only', async () => {
    const res = await manifestOf(admin, await kickOff(admin, '/api/fhir/Patient/$export'));
    expect(res.body.status).toBe('completed');
    expect(res.body.request).toBe(`${app.url}/api/fhir/Patient/$export`);
    const files = await filesOf(admin, res.body.output);
    expect(files.Observation).toEqual(['obs-1', 'obs-2', 'obs-3', 'obs-4', 'obs-5', 'obs-6']);
    expect(files.Patient).toEqual(['pat-1', 'pat-2']);
  });
});

describe('kick-off refusals', () => {
  it.each([
    [
      '/api/fhir/$export',
      {},
      'A bulk export needs the header Prefer: respond-async',
      [{ path: 'headers.prefer', message: 'Must be respond-async' }],
    ],
    [
      '/api/fhir/$export?_type=Practitioner',
      { prefer: 'respond-async' },
      'The export names a resource type this server does not hold',
      [
        {
          path: 'query._type',
          message:
            'Supported types: Patient, Encounter, Observation, Condition, MedicationRequest, AllergyIntolerance, ' +
            'CoverageEligibilityRequest, CoverageEligibilityResponse',
        },
      ],
    ],
    [
      '/api/fhir/$export?_outputFormat=text/csv',
      { prefer: 'respond-async' },
      'The request query is not valid',
      [{ path: 'query._outputFormat', message: 'Only application/fhir+ndjson is supported' }],
    ],
    [
      '/api/fhir/Patient/$export?_since=yesterday',
      { prefer: 'respond-async' },
      'The request query is not valid',
      [{ path: 'query._since', message: '_since must be a FHIR instant, e.g. 2024-03-01T00:00:00Z' }],
    ],
  ])('refuses %s with 400 OperationOutcome and records no job', async (url, headers, text, fields) => {
    const before = await app.db.bulkExportJob.count();
    const res = await admin.get(url, { headers });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'error',
          code: 'invalid',
          details: { coding: [{ system: 'urn:clinic-revenue-platform:error-code', code: 'VALIDATION_FAILED' }], text },
          diagnostics: `correlationId=${res.headers.get('x-correlation-id')}`,
        },
        ...fields.map((f) => ({
          severity: 'error',
          code: 'invalid',
          details: { text: f.message },
          expression: [f.path],
        })),
      ],
    });
    expect(await app.db.bulkExportJob.count()).toBe(before);
  });

  it.each([
    [
      '_typeFilter=Patient%3Factive%3Dtrue',
      '_typeFilter',
      'is not supported (send Prefer: handling=lenient to have it ignored)',
    ],
    ['_elements=id', '_elements', 'is not supported (send Prefer: handling=lenient to have it ignored)'],
    ['patient=Patient%2Fpat-1', 'patient', 'is not supported (send Prefer: handling=lenient to have it ignored)'],
    [
      'includeAssociatedData=LatestProvenanceResources',
      'includeAssociatedData',
      'is not supported (send Prefer: handling=lenient to have it ignored)',
    ],
    ['_format=csv', '_format', 'is not a Bulk Data export parameter'],
  ])('refuses ?%s with 400 OperationOutcome naming it (the IG is strict by default)', async (query, name, text) => {
    const before = await app.db.bulkExportJob.count();
    const res = await admin.get(`/api/fhir/$export?${query}`, { headers: { prefer: 'respond-async' } });
    expect(res.status).toBe(400);
    expect(res.body.resourceType).toBe('OperationOutcome');
    expect(res.body.issue[0].details.text).toBe('The export asks for a parameter this server does not support');
    expect(res.body.issue[1]).toEqual({
      severity: 'error',
      code: 'invalid',
      details: { text: `${name} ${text}` },
      expression: [`query.${name}`],
    });
    expect(await app.db.bulkExportJob.count()).toBe(before);
  });

  it('ignores them under Prefer: handling=lenient and says so with a warning OperationOutcome in error[]', async () => {
    const statusUrl = await kickOff(
      admin,
      '/api/fhir/$export?_type=Patient&_elements=id&_typeFilter=Patient%3Factive%3Dtrue',
      {
        prefer: 'respond-async, handling=lenient',
      },
    );
    const res = await manifestOf(admin, statusUrl);
    expect(res.body.output.map((o: { type: string; count: number }) => [o.type, o.count])).toEqual([['Patient', 2]]);
    expect(res.body.error).toEqual([
      { type: 'OperationOutcome', url: expect.stringMatching(/\/api\/fhir\/bulk-files\//) },
    ]);
    const warning = await admin.get(res.body.error[0].url);
    expect(JSON.parse(warning.text.trim())).toEqual({
      resourceType: 'OperationOutcome',
      issue: ['_elements', '_typeFilter'].map((name) => ({
        severity: 'warning',
        code: 'not-supported',
        details: { text: `The parameter ${name} is not supported and was ignored (Prefer: handling=lenient)` },
        expression: [name],
      })),
    });
  });

  it('kicks off by POST with a FHIR Parameters body as it does by GET', async () => {
    const res = await admin.post(
      '/api/fhir/$export',
      {
        resourceType: 'Parameters',
        parameter: [
          { name: '_type', valueString: 'Observation' },
          { name: '_type', valueString: 'Patient' },
          { name: '_since', valueInstant: '2026-02-01T00:00:00Z' },
          { name: '_outputFormat', valueString: 'application/fhir+ndjson' },
        ],
      },
      { headers: { prefer: 'respond-async', 'content-type': 'application/fhir+json' } },
    );
    expect(res.status).toBe(202);
    const manifest = await manifestOf(admin, res.headers.get('content-location')!);
    expect(manifest.body.output.map((o: { type: string; count: number }) => [o.type, o.count])).toEqual([
      ['Observation', 1],
    ]);
    const patientLevel = await admin.post(
      '/api/fhir/Patient/$export',
      { resourceType: 'Parameters', parameter: [{ name: 'patient', valueReference: { reference: 'Patient/pat-1' } }] },
      { headers: { prefer: 'respond-async', 'content-type': 'application/fhir+json' } },
    );
    expect(patientLevel.status).toBe(400);
    expect(patientLevel.body.issue[1].expression).toEqual(['query.patient']);
    const notParameters = await admin.post(
      '/api/fhir/$export',
      { resourceType: 'Bundle' },
      { headers: { prefer: 'respond-async' } },
    );
    expect(notParameters.status).toBe(400);
  });

  it('limits a clinic to 5 unfinished exports (429 with Retry-After)', async () => {
    const tenant = await createTenant(app.db, 'Export');
    const user = await createUser(app.db, tenant);
    const client = await signIn(app, user.email, TEST_PASSWORD);
    // Five unfinished exports (without jobs, so no worker finishes them).
    await app.db.bulkExportJob.createMany({ data: Array.from({ length: 5 }, () => jobRow(tenant.clinicId, user.id)) });
    const res = await client.get('/api/fhir/$export', { headers: { prefer: 'respond-async' } });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(res.body.issue[0]).toMatchObject({ code: 'throttled', details: { coding: [{ code: 'RATE_LIMITED' }] } });
    await app.db.bulkExportJob.deleteMany({ where: { clinicId: tenant.clinicId } });
  });

  it('holds the cap of 5 under 20 simultaneous kick-offs: 5 accepted, 15 refused with 429, 5 exports recorded', async () => {
    const tenant = await createTenant(app.db, 'ExportBurst');
    const client = await signIn(app, (await createUser(app.db, tenant)).email, TEST_PASSWORD);
    await embeddedFhirStore(app.db).upsertMany(tenant.clinicId, [{ resourceType: 'Patient', id: 'burst-1' }]);
    // No export may finish during the burst (a finished one frees a place): writing files waits on this lock.
    const blocker = new pg.Client({ connectionString: app.database!.url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE "BulkExportFile" IN EXCLUSIVE MODE');
      const statuses = await Promise.all(
        Array.from({ length: 20 }, () =>
          client.get('/api/fhir/$export?_type=Patient', { headers: { prefer: 'respond-async' } }).then((r) => r.status),
        ),
      );
      expect(statuses.filter((s) => s === 202)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(15);
      expect(await app.db.bulkExportJob.count({ where: { clinicId: tenant.clinicId } })).toBe(5);
    } finally {
      await blocker.query('ROLLBACK');
      await blocker.end();
    }
  });

  it('needs patients:read and a session', async () => {
    const billing = await signIn(app, 'billing@northside.test');
    const res = await billing.get('/api/fhir/$export', { headers: { prefer: 'respond-async' } });
    expect(res.status).toBe(403);
    expect(res.body.issue[0].details).toEqual({
      coding: [{ system: 'urn:clinic-revenue-platform:error-code', code: 'SCOPE_MISSING' }],
      text: 'This action needs the patients:read scope',
    });
    const status = await billing.get('/api/fhir/bulk-status/bx_x');
    expect(status.body).toEqual({
      code: 'SCOPE_MISSING',
      message: 'This action needs the patients:read scope',
      correlationId: expect.any(String),
    });
    for (const url of ['/api/fhir/$export', '/api/fhir/bulk-status/bx_x', '/api/fhir/bulk-files/f_x']) {
      expect((await new HttpClient(app.url).get(url)).status).toBe(401);
    }
  });
});

describe('status, files and cancellation across clinics', () => {
  it("answers 404 for another clinic's job and files", async () => {
    const statusUrl = await kickOff(admin, '/api/fhir/$export?_type=Patient');
    const manifest = await manifestOf(admin, statusUrl);
    const south = await signIn(app, 'admin@southside.test');
    const status = await south.get(statusUrl);
    expect(status.status).toBe(404);
    expect(status.body).toEqual({ code: 'NOT_FOUND', message: 'No such export', correlationId: expect.any(String) });
    const file = await south.get(manifest.body.output[0].url);
    expect(file.status).toBe(404);
    expect(file.body).toEqual({ code: 'NOT_FOUND', message: 'No such export file', correlationId: expect.any(String) });
    expect((await south.delete(statusUrl)).status).toBe(404);
    expect((await admin.get(manifest.body.output[0].url)).status).toBe(200);
  });

  it('cancels with DELETE: the status URL and the files are gone', async () => {
    const statusUrl = await kickOff(admin, '/api/fhir/$export?_type=Patient');
    const manifest = await manifestOf(admin, statusUrl);
    const res = await admin.delete(statusUrl);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ jobId: statusUrl.split('/').pop(), status: 'cancelled' });
    expect((await admin.get(statusUrl)).status).toBe(404);
    expect((await admin.get(manifest.body.output[0].url)).status).toBe(404);
    expect(await app.db.bulkExportFile.count({ where: { jobId: statusUrl.split('/').pop()! } })).toBe(0);
    expect(await findKeyedJob(app.db, 'bulk-export', statusUrl.split('/').pop()!)).toMatchObject({
      state: expect.stringMatching(/^(cancelled|completed)$/),
    });
  });
});

describe('the worker', () => {
  it('finishes a job whose worker died (its heartbeat stopped) instead of leaving it running', async () => {
    const user = await app.db.user.findUniqueOrThrow({ where: { email: 'admin@northside.test' } });
    const job = await exportWithJob('clinic_north', user.id, { retryCount: 0, heartbeatAgoSeconds: 60 });
    const res = await manifestOf(admin, `/api/fhir/bulk-status/${job.id}`);
    expect(res.body).toMatchObject({ status: 'completed', output: [{ type: 'Patient', count: 2 }], error: [] });
    expect(await app.db.bulkExportJob.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: 'completed',
      finishedAt: expect.any(Date),
    });
    await expect
      .poll(() => findKeyedJob(app.db, 'bulk-export', job.id))
      .toMatchObject({
        state: 'completed',
        retryCount: 1,
      });
  });

  it('fails a job whose third attempt died too, with an OperationOutcome in error[] and the dead letter in /api/jobs', async () => {
    const user = await app.db.user.findUniqueOrThrow({ where: { email: 'admin@northside.test' } });
    const job = await exportWithJob('clinic_north', user.id, { retryCount: 2, heartbeatAgoSeconds: 60 });
    const res = await manifestOf(admin, `/api/fhir/bulk-status/${job.id}`);
    expect(res.body).toEqual({
      transactionTime: job.transactionTime.toISOString(),
      request: job.request,
      requiresAccessToken: true,
      output: [],
      error: [{ type: 'OperationOutcome', url: expect.stringMatching(new RegExp(`^${app.url}/api/fhir/bulk-files/`)) }],
      status: 'failed',
    });
    const outcome = await admin.get(res.body.error[0].url);
    expect(JSON.parse(outcome.text)).toEqual({
      resourceType: 'OperationOutcome',
      issue: [
        { severity: 'error', code: 'exception', details: { text: 'The export could not be completed in 3 attempts' } },
      ],
    });
    const deadLetter = await findKeyedJob(app.db, 'bulk-export', job.id);
    expect(deadLetter).toMatchObject({ state: 'failed', retryCount: 2 });
    const listed = await admin.get('/api/jobs');
    expect(listed.status).toBe(200);
    expect(listed.body.jobs.find((j: { id: string }) => j.id === deadLetter!.id)).toEqual({
      id: deadLetter!.id,
      queue: 'bulk-export',
      state: 'failed',
      attempts: 3,
      lastError: 'Its worker stopped answering (the instance was stopped or died) before it finished',
      createdAt: expect.any(String),
      startedAt: expect.any(String),
      completedAt: expect.any(String),
    });
    // The admin sees it on Settings → Background work, with its reason in words (a real browser on the real page).
    await expect(deadLetterOnScreen(deadLetter!.id)).resolves.toContain(
      'Its worker stopped answering (the instance was stopped or died) before it finished',
    );
    // Its dead letter closed the export for good, so putting the job back would do nothing: 409, and it stays as
    // it was (the admin starts a new export instead).
    const retried = await admin.post(`/api/jobs/${deadLetter!.id}/retry`, undefined, {
      headers: await stepUpHeader(app, 'admin@northside.test'),
    });
    expect(retried.status).toBe(409);
    expect(retried.body).toMatchObject({
      code: 'NOT_EXECUTABLE',
      message: 'This bulk export stopped for good and cannot be run again; start a new export',
    });
    expect(await findKeyedJob(app.db, 'bulk-export', job.id)).toMatchObject({ state: 'failed', retryCount: 2 });
    expect(await app.db.bulkExportJob.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ status: 'failed' });
  });
});
