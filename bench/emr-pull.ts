// npm run bench -- emr-pull: a SMART backend pull over FHIR Bulk Data through the real app (`next start`,
// PostgreSQL) from the local fake EHR serving NDJSON files generated before each pull is timed (in blocks, as a
// file server sends them), at N = 20,000 and N = 200,000 resources (the six sync types, one system-level export
// each, each into a fresh clinic). Measured: the server's peak RSS during each pull (VmHWM, reset just before
// it), resources per second, and the server's CPU time per resource (user + system: less moved by other load on
// the cores than wall time). Baseline in the same run: a raw multi-row INSERT of 10,000 prepared rows into
// FhirResource (fhir-upsert's floor: 1,000 rows a statement, one transaction), as rows per second, on the same
// database: three rounds before the pulls and three after, median.
// A 20,000 warm-up pull comes first and is not counted; the server's RSS is sampled through each pull.
// Targets: peak RSS at 200k within 50 MB of the peak at 20k (memory does not grow with the population:
// `rssGrowthMb`), and resources/s at 200k at least 0.5 of the raw INSERT rate (`ratio`).
// Needs a build (NEXT_DIST_DIR, default .next) and the local PostgreSQL the HTTP tests use.
// BENCH_SERVER_NODE_OPTIONS is handed to the server as NODE_OPTIONS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
// The last line is one JSON object {"name","ratio","target",...}.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { startFakeEmr } from '../test/fakes/fake-emr';
import { startApp } from '../test/support/app';
import { createTenant, createUser, uid } from '../test/support/factories';
import { signIn } from '../test/support/http';
import { holdStepUp } from '../test/support/step-up-claim';
import { median } from './support/median';

const SIZES = [20_000, 200_000];
const TYPES = ['Patient', 'Encounter', 'Observation', 'Condition', 'MedicationRequest', 'AllergyIntolerance'];
const RAW_ROWS = 10_000;
const RAW_ROWS_PER_STATEMENT = 1000;
const RAW_ROUNDS = 3;

/** One synthetic resource of a type, about the size of fhir-upsert's (a patient per 10 resources). */
function resource(type: string, i: number): Record<string, unknown> {
  const id = `${type.toLowerCase()}-${i}`;
  const patientLink = { reference: `Patient/patient-${Math.floor(i / 10)}` };
  return {
    resourceType: type,
    id,
    meta: { versionId: '1', lastUpdated: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString() },
    ...(type === 'Patient'
      ? { name: [{ family: `Synthetic${i}`, given: ['Pat'] }], birthDate: '1970-01-01', gender: 'unknown' }
      : type === 'AllergyIntolerance'
        ? { patient: patientLink }
        : { subject: patientLink }),
    status: 'final',
    code: {
      coding: [{ system: 'http://loinc.org', code: `${1000 + (i % 97)}-${i % 10}`, display: 'Synthetic measurement' }],
      text: 'Synthetic measurement',
    },
    valueQuantity: { value: (i % 200) / 2, unit: 'mg/dL', system: 'http://unitsofmeasure.org', code: 'mg/dL' },
    effectiveDateTime: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString(),
    note: [{ text: createHash('sha256').update(String(i)).digest('hex') }],
  };
}

/** Each type's file for the pull about to run, generated before it is timed (linesOf). */
let files = new Map<string, string[]>();
function* linesOf(type: string, population: number): Iterable<string> {
  const perType = Math.ceil(population / TYPES.length);
  const offset = TYPES.indexOf(type) * perType;
  const count = Math.min(perType, population - offset);
  for (let i = 0; i < count; i++) {
    // Patients are patient-0..patient-{perType-1}; the others point at patient-{index/10}, always one of them.
    yield JSON.stringify(resource(type, type === 'Patient' ? i : offset + i));
  }
}

function statusNumber(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024);
}

function resetPeakRss(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

const pair = await generateKeyPair('RS384', { extractable: true });
const emr = await startFakeEmr({
  clientId: 'bench-client',
  publicKeyPem: await exportSPKI(pair.publicKey),
  keyId: 'bench-key',
  bulkExport: { lines: (type) => files.get(type) ?? [] },
});
// A warm-up pull first (JIT, plans, pools), then the measured ones, each into its own clinic.
const WARM_UP = 20_000;
const clinics = [WARM_UP, ...SIZES].map(() => uid('clinic'));
const app = await startApp({
  env: {
    LOG_LEVEL: 'error',
    NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS,
    SMART_CLIENT_ID: 'bench-client',
    SMART_PRIVATE_KEY: await exportPKCS8(pair.privateKey),
    SMART_KEY_ID: 'bench-key',
    EMR_VENDORS: JSON.stringify({
      'smart-backend': {
        tokenUrl: emr.tokenUrl,
        fhirBaseUrl: emr.fhirBaseUrl,
        groups: Object.fromEntries(clinics.map((id) => [id, '*'])),
      },
    }),
  },
});

async function rawInsertRates(rounds: number): Promise<number[]> {
  const rates: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const clinicId = uid('clinic');
    const now = new Date().toISOString();
    const rows = Array.from({ length: RAW_ROWS }, (_, i) => {
      const r = resource(TYPES[i % TYPES.length]!, i);
      const body = JSON.stringify({ ...r, meta: { versionId: '1', lastUpdated: now } });
      return [
        `fr_${randomUUID()}`,
        clinicId,
        r.resourceType,
        r.id,
        1,
        now,
        createHash('sha256').update(body).digest('hex'),
        body,
      ] as const;
    });
    const start = process.hrtime.bigint();
    const statements = [];
    for (let offset = 0; offset < rows.length; offset += RAW_ROWS_PER_STATEMENT) {
      const chunk = rows.slice(offset, offset + RAW_ROWS_PER_STATEMENT);
      const values = chunk.map(
        (_, i) =>
          `($${i * 8 + 1}, $${i * 8 + 2}, $${i * 8 + 3}, $${i * 8 + 4}, $${i * 8 + 5}::int, $${i * 8 + 6}::timestamp(3), $${i * 8 + 7}, $${i * 8 + 8}::jsonb)`,
      );
      statements.push(
        app.db.$executeRawUnsafe(
          `INSERT INTO "FhirResource" ("id", "clinicId", "resourceType", "resourceId", "versionId", "lastUpdated", "contentHash", "resource") VALUES ${values.join(', ')}`,
          ...chunk.flat(),
        ),
      );
    }
    await app.db.$transaction(statements);
    rates.push(RAW_ROWS / (Number(process.hrtime.bigint() - start) / 1e9));
  }
  return rates;
}

/** CPU time (user + system) the process has used, in ms: beside the ratio, what the pull costs the server itself. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** Samples the server's RSS every 250 ms while `work` runs: [elapsed s, MB] pairs, to see growth over a pull. */
async function sampled<T>(pid: number, work: Promise<T>): Promise<{ result: T; samples: [number, number][] }> {
  const samples: [number, number][] = [];
  const start = Date.now();
  const timer = setInterval(() => samples.push([(Date.now() - start) / 1000, statusNumber(pid, 'VmRSS')]), 250);
  try {
    return { result: await work, samples };
  } finally {
    clearInterval(timer);
  }
}

try {
  const results: {
    n: number;
    seconds: number;
    perSecond: number;
    peakRssMb: number;
    rssBeforeMb: number;
    serverCpuUsPerResource: number;
  }[] = [];
  let peakResetWorked = true;
  // The raw floor is measured before and after the pulls (the machine's load moves); the median of all rounds.
  const rawRates = await rawInsertRates(RAW_ROUNDS);
  for (const [index, n] of [WARM_UP, ...SIZES].entries()) {
    const tenant = await createTenant(app.db, 'Bench', { clinicId: clinics[index]! });
    const user = await createUser(app.db, tenant, { scopes: ['integrations:read'] });
    // Creating a connection is gated by step-up (docs/security.md); the bench holds one like a browser would.
    const client = await holdStepUp(app, await signIn(app, user.email, user.password));
    const connectionId = (await client.post('/api/emr-sync/connections', { vendor: 'smart-backend' })).body.connection
      .id as string;
    // The export's files exist before the pull asks for them, as a real EHR's do once its export job completes:
    // generating each line (a sha256, two ISO dates, a stringify) while it was sent ran on the same two cores as
    // the server and PostgreSQL, inside the measured time.
    files = new Map(TYPES.map((type) => [type, [...linesOf(type, n)]]));
    const rssBeforeMb = statusNumber(app.pid, 'VmRSS');
    peakResetWorked &&= resetPeakRss(app.pid);
    const cpuBefore = cpuMs(app.pid);
    const start = process.hrtime.bigint();
    const { result: res, samples } = await sampled(app.pid, client.post('/api/emr-sync/smart/pull', { connectionId }));
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const serverCpuUsPerResource = Math.round(((cpuMs(app.pid) - cpuBefore) * 1000) / n);
    if (res.status !== 200) throw new Error(`pull of ${n} answered ${res.status}: ${res.text}`);
    const upserted = Object.values(res.body.upserted as Record<string, number>).reduce((a, b) => a + b, 0);
    if (upserted !== n) throw new Error(`pull of ${n} upserted ${upserted}`);
    const peakRssMb = statusNumber(app.pid, 'VmHWM');
    const label = index === 0 ? 'warm-up' : 'measured';
    console.error(
      `${label} N=${n}: ${seconds.toFixed(1)} s, ${Math.round(n / seconds)} resources/s, server CPU ${serverCpuUsPerResource} µs a resource, peak RSS ${peakRssMb} MB (before ${rssBeforeMb} MB); RSS over the pull: ${samples
        .filter((_, i) => i % Math.max(1, Math.floor(samples.length / 12)) === 0)
        .map(([t, mb]) => `${t.toFixed(0)}s ${mb}`)
        .join(', ')}`,
    );
    if (index > 0) results.push({ n, seconds, perSecond: n / seconds, peakRssMb, rssBeforeMb, serverCpuUsPerResource });
  }
  rawRates.push(...(await rawInsertRates(RAW_ROUNDS)));
  const rawPerSecond = median(rawRates);
  const [small, large] = results as [(typeof results)[number], (typeof results)[number]];
  console.error(`raw multi-row INSERT rows/s by round: ${rawRates.map(Math.round).join(', ')}`);
  console.log(
    JSON.stringify({
      name: 'emr-pull',
      ratio: Number((large.perSecond / rawPerSecond).toFixed(3)),
      target: 0.5,
      rssGrowthMb: large.peakRssMb - small.peakRssMb,
      rssGrowthTargetMb: 50,
      resourcesPerSecond: Object.fromEntries(results.map((r) => [r.n, Math.round(r.perSecond)])),
      seconds: Object.fromEntries(results.map((r) => [r.n, Number(r.seconds.toFixed(1))])),
      peakRssMb: Object.fromEntries(results.map((r) => [r.n, r.peakRssMb])),
      serverCpuUsPerResource: Object.fromEntries(results.map((r) => [r.n, r.serverCpuUsPerResource])),
      rawInsertRowsPerSecond: Math.round(rawPerSecond),
      peakReset: peakResetWorked,
      database: 'postgres',
    }),
  );
} finally {
  await app.stop();
  await emr.close();
}
