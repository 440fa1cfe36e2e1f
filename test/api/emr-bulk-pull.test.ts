// The SMART backend pull over FHIR Bulk Data (issue #12 items 1-2) against the fake EHR, through the real app and
// PostgreSQL: discovery from the CapabilityStatement, Group and system kick-off, 202 polling with Retry-After, the
// manifest's error file (fail closed), a token that expires mid-download, a truncated NDJSON file (nothing saved),
// the DELETE after success and failure, the search fallback, the binding 403 with zero calls, per-source identity,
// the run's progress through GET /api/emr-sync/runs/{id}, and incremental `_since`. Issue #32: a `_since` pull
// removes what the manifest's `deleted` files list (of that source only, counted as `deleted`), a transient 500 on a
// status poll and a 429 at kick-off are retried (waits clamped to at least 10 s), and a finished run's progress
// keeps no EHR progress text.
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedId } from '@/lib/fhir/served-resource';
import { startFakeEmr, type FakeEmr } from '../fakes/fake-emr';
import { startApp, type TestApp } from '../support/app';
import { createTenant, createUser, TEST_PASSWORD, uid } from '../support/factories';
import { signIn, type HttpClient } from '../support/http';
import { holdStepUp } from '../support/step-up-claim';

const CLIENT_ID = 'bulk-client';
const KEY_ID = 'bulk-key';
const PARTNER_KEY = 'partner-key';
const TYPES = 'Patient,Encounter,Observation,Condition,MedicationRequest,AllergyIntolerance';
// From the fixtures: grp-north is pat-1 (pat-9 is inactive, pr-1 not a patient); "*" is everyone.
const NORTH = { Patient: 1, Encounter: 2, Observation: 3, Condition: 1, MedicationRequest: 1, AllergyIntolerance: 1 };
const ALL = { Patient: 2, Encounter: 4, Observation: 6, Condition: 3, MedicationRequest: 3, AllergyIntolerance: 2 };
const NONE = { Patient: 0, Encounter: 0, Observation: 0, Condition: 0, MedicationRequest: 0, AllergyIntolerance: 0 };
const INVALID = {
  code: 'TRANSPORT_FAILED',
  message: 'The EMR sent a resource that is not valid FHIR; nothing was saved',
  correlationId: expect.any(String),
};

let emr: FakeEmr;
let other: FakeEmr;
let app: TestApp;
const northClinics = Array.from({ length: 24 }, () => uid('clinic'));
const allClinic = uid('clinic');
const unboundClinic = uid('clinic');
let nextNorth = 0;

beforeAll(async () => {
  const pair = await generateKeyPair('RS384', { extractable: true });
  emr = await startFakeEmr({
    clientId: CLIENT_ID,
    publicKeyPem: await exportSPKI(pair.publicKey),
    keyId: KEY_ID,
    bulkExport: {},
  });
  // A second EHR (the partner API here) serving the same ids: its Patient/pat-1 is another patient.
  other = await startFakeEmr({ apiKey: PARTNER_KEY, pageSize: 50 });
  app = await startApp({
    env: {
      SMART_CLIENT_ID: CLIENT_ID,
      SMART_PRIVATE_KEY: await exportPKCS8(pair.privateKey),
      SMART_KEY_ID: KEY_ID,
      EMR_VENDORS: JSON.stringify({
        'smart-backend': {
          tokenUrl: emr.tokenUrl,
          fhirBaseUrl: emr.fhirBaseUrl,
          groups: { ...Object.fromEntries(northClinics.map((id) => [id, 'grp-north'])), [allClinic]: '*' },
        },
      }),
      PARTNER_API_URL: other.fhirBaseUrl,
      PARTNER_API_KEY: PARTNER_KEY,
      PARTNER_API_ACCOUNTS: JSON.stringify(Object.fromEntries(northClinics.map((id) => [id, `acct-${id}`]))),
    },
  });
});
afterAll(async () => {
  await app?.stop();
  await emr?.close();
  await other?.close();
});

async function clinic(clinicId = northClinics[nextNorth++]!) {
  const tenant = await createTenant(app.db, 'Bulk', { clinicId });
  const user = await createUser(app.db, tenant);
  const client = await signIn(app, user.email, TEST_PASSWORD);
  const created = await (await holdStepUp(app, client)).post('/api/emr-sync/connections', { vendor: 'smart-backend' });
  expect(created.status).toBe(201);
  return { clinicId, client, connectionId: created.body.connection.id as string };
}

const pull = (client: HttpClient, connectionId: string, since?: string) =>
  client.post('/api/emr-sync/smart/pull', { connectionId, ...(since && { since }) });

const storedCount = (clinicId: string) => app.db.fhirResource.count({ where: { clinicId } });
const stagedCount = async (clinicId: string) => {
  const runs = await app.db.syncRun.findMany({ where: { clinicId }, select: { id: true } });
  return app.db.fhirStagedResource.count({ where: { syncRunId: { in: runs.map((r) => r.id) } } });
};
const lastJob = () => emr.bulk.jobs.at(-1)!;

describe('SMART backend pull over FHIR Bulk Data', () => {
  it('exports the bound Group, streams the files into the store and DELETEs the job', async () => {
    const { clinicId, client, connectionId } = await clinic();
    const [kickOffs, tokens] = [emr.bulk.kickOffs.length, emr.requests.token];
    const res = await pull(client, connectionId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      upserted: NORTH,
      deleted: NONE,
      fhirStore: 'embedded',
      syncRunId: expect.any(String),
      nextSince: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const [kickOff] = emr.bulk.kickOffs.slice(kickOffs);
    expect(kickOff).toMatchObject({ path: '/fhir/Group/grp-north/$export', prefer: 'respond-async' });
    expect(kickOff!.accept).toBe('application/fhir+json');
    expect(Object.fromEntries(kickOff!.query)).toEqual({ _type: TYPES });
    expect(emr.requests.token - tokens).toBe(1);
    // A Group binding asks for the Group's scope beside the six types'.
    expect(emr.receivedTokenRequests.at(-1)!.scope!.split(' ')).toEqual([
      ...TYPES.split(',').map((t) => `system/${t}.read`),
      'system/Group.read',
    ]);
    // Every file with the bearer token, every job released.
    const job = lastJob();
    const files = emr.bulk.fileDownloads.filter((d) => d.path.includes(job));
    expect(files).toHaveLength(6);
    expect(files.every((d) => /^Bearer \S+$/.test(d.authorization ?? ''))).toBe(true);
    expect(emr.bulk.deletes).toContain(job);

    const rows = await app.db.fhirResource.findMany({ where: { clinicId } });
    expect(rows).toHaveLength(9);
    const patient = servedId(emr.fhirBaseUrl, 'pat-1');
    // patientRef is the served patient id on every row, so `patient=` is an indexed equality.
    expect(rows.every((r) => r.patientRef === patient && r.source === emr.fhirBaseUrl && r.versionId === 1)).toBe(true);
    const observations = await client.get(`/api/fhir/Observation?patient=${patient}`);
    expect(observations.status).toBe(200);
    expect(observations.body.total).toBe(3);
    expect(await stagedCount(clinicId)).toBe(0);

    const run = await client.get(`/api/emr-sync/runs/${res.body.syncRunId}`);
    expect(run.status).toBe(200);
    expect(run.body).toEqual({
      id: res.body.syncRunId,
      connectionId,
      kind: 'smart-backend',
      status: 'succeeded',
      progress: { phase: 'done', files: 6, filesDone: 6, resources: 9 },
      counts: Object.fromEntries(
        Object.entries(NORTH).map(([type, n]) => [type, { created: n, updated: 0, unchanged: 0 }]),
      ),
      error: null,
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
    });
    // The cursor is the manifest's transactionTime (the EHR's clock).
    expect((await app.db.syncRun.findUniqueOrThrow({ where: { id: res.body.syncRunId } })).cursor).toBe(
      res.body.nextSince,
    );

    // Pulled again: nothing changes, every version stays 1.
    const again = await pull(client, connectionId);
    expect(again.body.upserted).toEqual(NORTH);
    expect((await app.db.fhirResource.findMany({ where: { clinicId } })).every((r) => r.versionId === 1)).toBe(true);
  });

  it('uses the system-level $export for a "*" binding', async () => {
    const { clinicId, client, connectionId } = await clinic(allClinic);
    const kickOffs = emr.bulk.kickOffs.length;
    const res = await pull(client, connectionId);
    expect(res.status).toBe(200);
    expect(res.body.upserted).toEqual(ALL);
    expect(emr.bulk.kickOffs.slice(kickOffs).map((k) => k.path)).toEqual(['/fhir/$export']);
    expect(await storedCount(clinicId)).toBe(20);
  });

  it('polls the status URL as Retry-After says (at least 10 s) until the manifest is ready', async () => {
    const { client, connectionId } = await clinic();
    emr.bulkNext({ pollsBeforeReady: 1, retryAfter: '1' });
    const started = Date.now();
    const res = await pull(client, connectionId);
    expect(res.status).toBe(200);
    expect(emr.bulk.pollsByJob[lastJob()]).toBe(2);
    // Retry-After: 1 is clamped to the ruled 10 s floor.
    expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
    expect(emr.bulk.deletes).toContain(lastJob());
  }, 60_000);

  it('shows the running pull through GET /api/emr-sync/runs/{id}, to its clinic only', async () => {
    const { clinicId, client, connectionId } = await clinic();
    emr.bulkNext({ pollsBeforeReady: 1, retryAfter: '1' });
    const pending = pull(client, connectionId);
    let running: { id: string } | null = null;
    for (let i = 0; i < 50 && !running; i++) {
      await new Promise((r) => setTimeout(r, 100));
      running = await app.db.syncRun.findFirst({ where: { clinicId, status: 'running' }, select: { id: true } });
    }
    expect(running).not.toBeNull();
    await new Promise((r) => setTimeout(r, 1200));
    const during = await client.get(`/api/emr-sync/runs/${running!.id}`);
    expect(during.status).toBe(200);
    expect(during.body).toMatchObject({
      status: 'running',
      finishedAt: null,
      progress: { phase: 'exporting', resources: 0, serverProgress: expect.stringContaining('exporting') },
    });
    const stranger = await clinic();
    const foreign = await stranger.client.get(`/api/emr-sync/runs/${running!.id}`);
    expect(foreign.status).toBe(404);
    expect((await client.get('/api/emr-sync/runs/sr_missing')).status).toBe(404);

    const res = await pending;
    expect(res.status).toBe(200);
    const finished = await client.get(`/api/emr-sync/runs/${running!.id}`);
    expect(finished.body).toMatchObject({ status: 'succeeded', progress: { phase: 'done', resources: 9 } });
    // The EHR's progress text belonged to the export, not to the finished run.
    expect(finished.body.progress).not.toHaveProperty('serverProgress');
  }, 60_000);

  it('fails closed on an error file in the manifest: 502, nothing saved, the job DELETEd', async () => {
    const { clinicId, client, connectionId } = await clinic();
    emr.bulkNext({ errorIssues: [{ severity: 'error', code: 'processing', diagnostics: 'Patient pat-1 unreadable' }] });
    const downloads = emr.bulk.fileDownloads.length;
    const res = await pull(client, connectionId);
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      code: 'TRANSPORT_FAILED',
      message: 'The EMR reported errors in its export; nothing was saved',
      correlationId: expect.any(String),
    });
    expect(res.text).not.toContain('pat-1');
    // Only the error file was read; no output file.
    expect(emr.bulk.fileDownloads.slice(downloads).map((d) => d.path)).toEqual([
      emr.bulkFilePath(lastJob(), 'OperationOutcome'),
    ]);
    expect(emr.bulk.deletes).toContain(lastJob());
    expect(await storedCount(clinicId)).toBe(0);
    const run = await client.get(
      `/api/emr-sync/runs/${(await app.db.syncRun.findFirstOrThrow({ where: { clinicId } })).id}`,
    );
    expect(run.body).toMatchObject({
      status: 'failed',
      counts: { error: 'TRANSPORT_FAILED' },
      error: 'The EMR reported errors in its export; nothing was saved',
      progress: { phase: 'failed' },
    });
  });

  it('goes on when the error file holds only warnings', async () => {
    const { clinicId, client, connectionId } = await clinic();
    emr.bulkNext({ errorIssues: [{ severity: 'warning', code: 'informational' }] });
    const res = await pull(client, connectionId);
    expect(res.status).toBe(200);
    expect(await storedCount(clinicId)).toBe(9);
  });

  it('gets a fresh token when a file download answers 401, and retries it once', async () => {
    const { clinicId, client, connectionId } = await clinic();
    emr.bulkNext({ unauthorizedOnce: 'Observation' });
    const tokens = emr.requests.token;
    const res = await pull(client, connectionId);
    expect(res.status).toBe(200);
    expect(emr.requests.token - tokens).toBe(2);
    const observationFile = emr.bulkFilePath(lastJob(), 'Observation');
    const tries = emr.bulk.fileDownloads.filter((d) => d.path === observationFile);
    expect(tries).toHaveLength(2);
    expect(tries[0]!.authorization).not.toBe(tries[1]!.authorization);
    expect(await storedCount(clinicId)).toBe(9);
  });

  it('saves nothing when an NDJSON file is truncated mid-line, and DELETEs the job', async () => {
    const { clinicId, client, connectionId } = await clinic();
    emr.bulkNext({ truncate: 'Observation' });
    const res = await pull(client, connectionId);
    expect(res.status).toBe(502);
    expect(res.body).toEqual(INVALID);
    expect(emr.bulk.deletes).toContain(lastJob());
    expect(await storedCount(clinicId)).toBe(0);
    // Patient and Encounter were staged before the Observation file failed: the staged rows are gone too.
    expect(await stagedCount(clinicId)).toBe(0);
    expect(await app.db.syncRun.findFirst({ where: { clinicId } })).toMatchObject({
      status: 'failed',
      error: INVALID.message,
    });
  });

  it('refuses a resource carrying a control character FHIR forbids (escaped in the NDJSON text)', async () => {
    const { clinicId, client, connectionId } = await clinic();
    const bad = {
      resourceType: 'Observation',
      id: 'obs-bad',
      status: 'final',
      subject: { reference: 'Patient/pat-1' },
    };
    emr.bulkNext({
      prependLines: { type: 'Observation', lines: [JSON.stringify({ ...bad, note: [{ text: 'a\u0000b' }] })] },
    });
    const res = await pull(client, connectionId);
    expect(res.status).toBe(502);
    expect(res.body).toEqual(INVALID);
    expect(await storedCount(clinicId)).toBe(0);
    // The same text with an escaped backslash is a literal "\u0000": valid, stored.
    emr.bulkNext({
      prependLines: { type: 'Observation', lines: [JSON.stringify({ ...bad, note: [{ text: 'a\\u0000b' }] })] },
    });
    const ok = await pull(client, connectionId);
    expect(ok.status).toBe(200);
    expect(ok.body.upserted.Observation).toBe(4);
  });

  it('DELETEs the job when the export itself fails', async () => {
    const { clinicId, client, connectionId } = await clinic();
    emr.bulkNext({ statusFailure: 500 });
    const res = await pull(client, connectionId);
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('The EMR could not be reached; try again later');
    expect(emr.bulk.deletes).toContain(lastJob());
    expect(await storedCount(clinicId)).toBe(0);
  });

  it("passes since as _since, and the last run's nextSince makes an incremental pull", async () => {
    const { client, connectionId } = await clinic();
    const first = await pull(client, connectionId, '2024-03-01');
    expect(first.status).toBe(200);
    expect(emr.bulk.kickOffs.at(-1)!.query.get('_since')).toBe('2024-03-01T00:00:00Z');
    // pat-1's resources changed on or after 2024-03-01: enc-3, obs-4 and obs-5.
    expect(first.body.upserted).toEqual({
      Patient: 0,
      Encounter: 1,
      Observation: 2,
      Condition: 0,
      MedicationRequest: 0,
      AllergyIntolerance: 0,
    });
    const next = await pull(client, connectionId, first.body.nextSince);
    expect(next.status).toBe(200);
    expect(emr.bulk.kickOffs.at(-1)!.query.get('_since')).toBe(first.body.nextSince);
    expect(Object.values(next.body.upserted)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('removes what a _since export lists as deleted, from that source only, and counts it on the run', async () => {
    const { clinicId, client, connectionId } = await clinic();
    expect((await pull(client, connectionId)).status).toBe(200);
    // The partner (another source) sends the same ids: its obs-1 and enc-1 must survive the EHR's deletions.
    expect((await client.post('/api/emr-sync/partner/pull', { from: '2024-01-01', to: '2024-01-31' })).status).toBe(
      200,
    );
    const fromEmr = { clinicId, source: emr.fhirBaseUrl };
    const fromOther = { clinicId, source: other.fhirBaseUrl };
    const otherBefore = await app.db.fhirResource.count({ where: fromOther });
    expect(await app.db.fhirResource.count({ where: fromEmr })).toBe(9);

    emr.bulkNext({
      deleted: [
        { resourceType: 'Observation', id: 'obs-1' },
        { resourceType: 'Encounter', id: 'enc-1' },
        // Not this clinic's (another Group's patient): nothing of ours to remove.
        { resourceType: 'Observation', id: 'obs-2' },
        // Not a type we pull: ignored.
        { resourceType: 'Practitioner', id: 'pr-1' },
      ],
    });
    const res = await pull(client, connectionId, '2024-03-01');
    expect(res.status).toBe(200);
    expect(res.body.deleted).toEqual({ ...NONE, Observation: 1, Encounter: 1 });
    expect(emr.bulk.fileDownloads.at(-1)!.path).toBe(emr.bulkFilePath(lastJob(), 'Deleted'));
    const left = await app.db.fhirResource.findMany({ where: fromEmr, select: { resourceId: true } });
    expect(left.map((r) => r.resourceId)).not.toContain(servedId(emr.fhirBaseUrl, 'obs-1'));
    expect(left.map((r) => r.resourceId)).not.toContain(servedId(emr.fhirBaseUrl, 'enc-1'));
    expect(left).toHaveLength(7);
    expect(await app.db.fhirResource.count({ where: fromOther })).toBe(otherBefore);
    expect(
      await app.db.fhirResource.count({ where: { ...fromOther, resourceId: servedId(other.fhirBaseUrl, 'obs-1') } }),
    ).toBe(1);
    // A deleted resource is gone from reads too.
    const read = await client.get(`/api/fhir/Observation/${servedId(emr.fhirBaseUrl, 'obs-1')}`);
    expect(read.status).toBe(404);

    const run = await client.get(`/api/emr-sync/runs/${res.body.syncRunId}`);
    expect(run.body.counts).toMatchObject({
      Observation: { deleted: 1 },
      Encounter: { deleted: 1 },
    });
    const withDeletions = Object.entries(run.body.counts as Record<string, { deleted?: number }>)
      .filter(([, counts]) => counts.deleted)
      .map(([type]) => type);
    expect(withDeletions.sort()).toEqual(['Encounter', 'Observation']);
  });

  it('saves nothing, deletions included, when a _since export fails after listing them', async () => {
    const { clinicId, client, connectionId } = await clinic();
    expect((await pull(client, connectionId)).status).toBe(200);
    emr.bulkNext({ deleted: [{ resourceType: 'Observation', id: 'obs-1' }], truncate: 'Observation' });
    const res = await pull(client, connectionId, '2024-03-01');
    expect(res.status).toBe(502);
    expect(await storedCount(clinicId)).toBe(9);
  });

  it('retries a status poll that failed with a transient OperationOutcome instead of cancelling the export', async () => {
    const { clinicId, client, connectionId } = await clinic();
    emr.bulkNext({ transientFailures: 1 });
    const res = await pull(client, connectionId);
    expect(res.status).toBe(200);
    expect(emr.bulk.pollsByJob[lastJob()]).toBe(2);
    expect(emr.bulk.deletes.filter((id) => id === lastJob())).toHaveLength(1);
    expect(await storedCount(clinicId)).toBe(9);
  }, 60_000);

  it('kicks off again after a 429 instead of failing the pull', async () => {
    const { clinicId, client, connectionId } = await clinic();
    const kickOffs = emr.bulk.kickOffs.length;
    emr.bulkNext({ kickOffTooMany: 1 });
    const res = await pull(client, connectionId);
    expect(res.status).toBe(200);
    expect(emr.bulk.kickOffs.length - kickOffs).toBe(2);
    expect(await storedCount(clinicId)).toBe(9);
  }, 60_000);

  it('falls back to the Group read and patient searches when the EHR offers no export', async () => {
    const { clinicId, client, connectionId } = await clinic();
    emr.setExportOffered(false);
    try {
      const [kickOffs, searches] = [emr.bulk.kickOffs.length, emr.receivedSearches.length];
      const res = await pull(client, connectionId);
      expect(res.status).toBe(200);
      expect(res.body.upserted).toEqual(NORTH);
      expect(emr.bulk.kickOffs.length).toBe(kickOffs);
      const seen = emr.receivedSearches.slice(searches);
      expect(seen.map((s) => s.path)).toEqual(TYPES.split(',').map((t) => `/fhir/${t}`));
      expect(seen.every((s) => (s.query.get('_id') ?? s.query.get('patient')) === 'pat-1')).toBe(true);
      expect(await storedCount(clinicId)).toBe(9);
      expect((await app.db.syncRun.findFirstOrThrow({ where: { clinicId } })).progress).toMatchObject({
        phase: 'done',
        files: 0,
        resources: 9,
      });
    } finally {
      emr.setExportOffered(true);
    }
  });

  it('refuses an unbound clinic with 403 and zero calls', async () => {
    const { clinicId, client, connectionId } = await clinic(unboundClinic);
    const connections = emr.connections;
    const res = await pull(client, connectionId);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'FORBIDDEN',
      message: 'This clinic is not linked to that integration',
      correlationId: expect.any(String),
    });
    expect(emr.connections).toBe(connections);
    expect(await app.db.syncRun.count({ where: { clinicId } })).toBe(0);
  });

  it('keeps two sources apart: the same Patient id from two EHRs is two patients', async () => {
    const { clinicId, client, connectionId } = await clinic();
    expect((await pull(client, connectionId)).status).toBe(200);
    const partner = await client.post('/api/emr-sync/partner/pull', { from: '2024-01-01', to: '2024-01-31' });
    expect(partner.status).toBe(200);
    const patients = await app.db.fhirResource.findMany({
      where: { clinicId, resourceType: 'Patient' },
      orderBy: { source: 'asc' },
    });
    expect(patients.map((p) => [p.source, p.resourceId, p.patientRef]).sort()).toEqual(
      [
        [emr.fhirBaseUrl, servedId(emr.fhirBaseUrl, 'pat-1'), servedId(emr.fhirBaseUrl, 'pat-1')],
        [other.fhirBaseUrl, servedId(other.fhirBaseUrl, 'pat-1'), servedId(other.fhirBaseUrl, 'pat-1')],
      ].sort(),
    );
    // Each source's observation points at its own patient, and `patient=` finds only that source's.
    const fromOther = await client.get(`/api/fhir/Observation?patient=${servedId(other.fhirBaseUrl, 'pat-1')}`);
    expect(fromOther.body.entry.map((e: { resource: { id: string } }) => e.resource.id)).toEqual([
      servedId(other.fhirBaseUrl, 'obs-1'),
    ]);
    const fromEmr = await client.get(`/api/fhir/Observation?patient=${servedId(emr.fhirBaseUrl, 'pat-1')}`);
    expect(fromEmr.body.total).toBe(3);
  });
});

// Issue #32 item 3: "Pull now" on a smart-backend connection is a job. The worker of the app polls at the ruled
// pace (at least 10 s between polls), so these exports are ready at their first poll, or cancelled mid-wait.
describe('Pull now as a job', () => {
  const pullNow = (client: HttpClient, connectionId: string) =>
    client.post(`/api/emr-sync/connections/${connectionId}/pull`, {});
  const settle = async (client: HttpClient, runId: string, open = ['queued', 'running', 'cancelling']) => {
    for (let i = 0; i < 120; i++) {
      const run = await client.get(`/api/emr-sync/runs/${runId}`);
      if (!open.includes(run.body.status)) return run.body;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`run ${runId} did not settle`);
  };

  it('answers 202 with the queued run, which a worker pulls to the end', async () => {
    const { clinicId, client, connectionId } = await clinic();
    const res = await pullNow(client, connectionId);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ syncRunId: expect.any(String), status: 'queued' });
    expect(res.headers.get('location')).toBe(`/api/emr-sync/runs/${res.body.syncRunId}`);
    const run = await settle(client, res.body.syncRunId);
    expect(run).toMatchObject({ status: 'succeeded', progress: { phase: 'done', files: 6, filesDone: 6 } });
    expect(
      Object.fromEntries(Object.entries(run.counts).map(([t, c]) => [t, (c as { created: number }).created])),
    ).toEqual(NORTH);
    expect(await storedCount(clinicId)).toBe(9);
    expect(emr.bulk.deletes).toContain(lastJob());
    // The job is the clinic's, listed as completed.
    const jobs = await app.db.$queryRawUnsafe<Array<{ state: string }>>(
      "SELECT state::text AS state FROM pgboss.job WHERE name = 'emr-pull' AND data->>'syncRunId' = $1",
      res.body.syncRunId,
    );
    expect(jobs).toEqual([{ state: 'completed' }]);
    // A finished run cannot be cancelled.
    const late = await client.post(`/api/emr-sync/runs/${res.body.syncRunId}/cancel`, {});
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('NOT_EXECUTABLE');
  });

  it('is cancelled from the screen mid-export: the EHR export is DELETEd and nothing is saved', async () => {
    const { clinicId, client, connectionId } = await clinic();
    emr.bulkNext({ pollsBeforeReady: 100, retryAfter: '600' });
    const deletes = emr.bulk.deletes.length;
    const res = await pullNow(client, connectionId);
    expect(res.status).toBe(202);
    // Wait until the worker polls the export, then cancel while it waits out the EHR's Retry-After.
    await settle(client, res.body.syncRunId, ['queued']);
    for (let i = 0; i < 100 && emr.bulk.deletes.length === deletes; i++) {
      const run = await client.get(`/api/emr-sync/runs/${res.body.syncRunId}`);
      if (run.body.progress?.phase === 'exporting') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const cancel = await client.post(`/api/emr-sync/runs/${res.body.syncRunId}/cancel`, {});
    expect(cancel.status).toBe(200);
    expect(cancel.body.status).toBe('cancelling');
    const run = await settle(client, res.body.syncRunId);
    expect(run).toMatchObject({ status: 'cancelled', progress: { phase: 'cancelled' } });
    expect(emr.bulk.deletes.length - deletes).toBe(1);
    expect(await storedCount(clinicId)).toBe(0);
    expect(await stagedCount(clinicId)).toBe(0);
    const audit = await app.db.auditLog.findMany({ where: { clinicId, action: 'emr.pull.cancel' } });
    expect(audit).toHaveLength(1);
  });

  it('refuses an unbound clinic before queuing anything; another clinic sees no run', async () => {
    const bound = await clinic();
    const res = await pullNow(bound.client, bound.connectionId);
    expect(res.status).toBe(202);
    await settle(bound.client, res.body.syncRunId);

    const unbound = await clinic(uid('clinic'));
    const kickOffs = emr.bulk.kickOffs.length;
    const refused = await pullNow(unbound.client, unbound.connectionId);
    expect(refused.status).toBe(403);
    expect(await app.db.syncRun.count({ where: { clinicId: unbound.clinicId } })).toBe(0);
    expect(emr.bulk.kickOffs.length).toBe(kickOffs);
    expect((await unbound.client.get(`/api/emr-sync/runs/${res.body.syncRunId}`)).status).toBe(404);
    expect((await unbound.client.post(`/api/emr-sync/runs/${res.body.syncRunId}/cancel`, {})).status).toBe(404);
  });
});
