// Every PHI read is in the PHI access log (DECISIONS "Security findings of 2026-11-28"), read back through
// GET /api/audit over real HTTP: FHIR reads and searches and bulk export downloads log the FHIR patient of each
// resource returned (`Patient/{id}`: a pulled patient is not one of the clinic's Patient rows), an appointment list
// logs each of its patients. A read that returns nothing (unknown id, another clinic's resource) logs nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedFhirStore } from '@/lib/fhir/embedded-fhir-store';
import type { FhirResource } from '@/lib/fhir/types';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createPatient, createTenant, createUser, type TestTenant, type TestUser } from '../support/factories';

const fixtures = (type: string) =>
  JSON.parse(fs.readFileSync(path.resolve('test/fakes/fixtures/emr', `${type}.json`), 'utf8')) as FhirResource[];

let app: TestApp;
let tenant: TestTenant;
let reader: TestUser;
let readerClient: HttpClient;
let adminClient: HttpClient;

beforeAll(async () => {
  app = await startApp();
  tenant = await createTenant(app.db, 'PHI audit');
  reader = await createUser(app.db, tenant, { scopes: ['patients:read', 'appointments:read'] });
  readerClient = await signIn(app, reader.email, reader.password);
  adminClient = await signIn(app, (await createUser(app.db, tenant)).email, reader.password);
  await embeddedFhirStore(app.db).upsertMany(tenant.clinicId, [...fixtures('Patient'), ...fixtures('Encounter')]);
});
afterAll(async () => {
  await app?.stop();
});

/** The PHI access log rows a request left, as GET /api/audit lists them for the clinic's admin. */
async function phiReadsOf(correlationId: string) {
  const res = await adminClient.get('/api/audit?action=phi.read');
  expect(res.status).toBe(200);
  return res.body.entries
    .filter((e: { correlationId: string }) => e.correlationId === correlationId)
    .map((e: { kind: string; userId: string; detail: { patientId: string; purpose: string } }) => ({
      kind: e.kind,
      userId: e.userId,
      ...e.detail,
    }))
    .sort((a: { patientId: string }, b: { patientId: string }) => a.patientId.localeCompare(b.patientId));
}

const correlationOf = (res: { headers: Headers }) => res.headers.get('x-correlation-id')!;

describe('FHIR reads and searches', () => {
  it('logs a read of one resource under its patient, before answering', async () => {
    const res = await readerClient.get('/api/fhir/Patient/pat-1');
    expect(res.status).toBe(200);
    expect(await phiReadsOf(correlationOf(res))).toEqual([
      { kind: 'phi-read', userId: reader.id, patientId: 'Patient/pat-1', purpose: 'fhir.read' },
    ]);
    const encounter = await readerClient.get('/api/fhir/Encounter/enc-2');
    expect(encounter.status).toBe(200);
    expect(await phiReadsOf(correlationOf(encounter))).toEqual([
      { kind: 'phi-read', userId: reader.id, patientId: 'Patient/pat-2', purpose: 'fhir.read' },
    ]);
  });

  it('logs each patient of a search page once', async () => {
    const res = await readerClient.get('/api/fhir/Encounter?_count=50');
    expect(res.status).toBe(200);
    expect(res.body.entry).toHaveLength(4);
    expect(await phiReadsOf(correlationOf(res))).toEqual([
      { kind: 'phi-read', userId: reader.id, patientId: 'Patient/pat-1', purpose: 'fhir.search' },
      { kind: 'phi-read', userId: reader.id, patientId: 'Patient/pat-2', purpose: 'fhir.search' },
    ]);
    const one = await readerClient.get('/api/fhir/Encounter?patient=pat-2');
    expect(await phiReadsOf(correlationOf(one))).toEqual([
      { kind: 'phi-read', userId: reader.id, patientId: 'Patient/pat-2', purpose: 'fhir.search' },
    ]);
  });

  it("logs nothing for an unknown id or another clinic's resource (nothing was read)", async () => {
    const south = await signIn(app, 'admin@southside.test');
    for (const [client, url] of [
      [readerClient, '/api/fhir/Patient/no-such-patient'],
      [south, '/api/fhir/Patient/pat-1'],
    ] as const) {
      const res = await client.get(url);
      expect(res.status).toBe(404);
      expect(await app.db.phiAccessLog.count({ where: { correlationId: correlationOf(res) } })).toBe(0);
    }
  });
});

describe('bulk export downloads', () => {
  it('logs every patient in a downloaded file, on each download', async () => {
    const jobId = `bx_phi_${Date.now()}`;
    const encounters = fixtures('Encounter');
    await app.db.bulkExportJob.create({
      data: {
        id: jobId,
        clinicId: tenant.clinicId,
        userId: reader.id,
        level: 'system',
        types: ['Encounter'],
        status: 'completed',
        request: `${app.url}/api/fhir/$export`,
        transactionTime: new Date(),
        correlationId: 'phi-audit-export-0001',
        finishedAt: new Date(),
        files: {
          create: [
            {
              resourceType: 'Encounter',
              count: encounters.length,
              ndjson: encounters.map((r) => JSON.stringify(r)).join('\n') + '\n',
            },
          ],
        },
      },
    });
    const file = await app.db.bulkExportFile.findFirstOrThrow({ where: { jobId } });
    for (let download = 0; download < 2; download++) {
      const res = await readerClient.get(`/api/fhir/bulk-files/${file.id}`);
      expect(res.status).toBe(200);
      expect(await phiReadsOf(correlationOf(res))).toEqual([
        { kind: 'phi-read', userId: reader.id, patientId: 'Patient/pat-1', purpose: 'fhir.bulk-export.download' },
        { kind: 'phi-read', userId: reader.id, patientId: 'Patient/pat-2', purpose: 'fhir.bulk-export.download' },
      ]);
    }
    const south = await signIn(app, 'admin@southside.test');
    const foreign = await south.get(`/api/fhir/bulk-files/${file.id}`);
    expect(foreign.status).toBe(404);
    expect(await app.db.phiAccessLog.count({ where: { correlationId: correlationOf(foreign) } })).toBe(0);
  });
});

describe('appointment lists', () => {
  it("logs each patient on the day's list", async () => {
    const [a, b] = [await createPatient(app.db, tenant), await createPatient(app.db, tenant)];
    for (const [i, patient] of [a, b, a].entries())
      await app.db.appointment.create({
        data: {
          id: `appt_phi_${i}_${Date.now()}`,
          clinicId: tenant.clinicId,
          patientId: patient.id,
          start: new Date(),
        },
      });
    const res = await readerClient.get('/api/appointments');
    expect(res.status).toBe(200);
    expect(res.body.appointments).toHaveLength(3);
    expect(await phiReadsOf(correlationOf(res))).toEqual(
      [a.id, b.id]
        .sort()
        .map((patientId) => ({ kind: 'phi-read', userId: reader.id, patientId, purpose: 'appointments.list' })),
    );
  });

  it('logs nothing for a day without appointments', async () => {
    const res = await readerClient.get('/api/appointments?date=2001-01-01');
    expect(res.status).toBe(200);
    expect(res.body.appointments).toEqual([]);
    expect(await app.db.phiAccessLog.count({ where: { correlationId: correlationOf(res) } })).toBe(0);
  });
});
