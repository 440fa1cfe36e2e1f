// npm run bench -- fhir-search: `GET /api/fhir/Observation?patient=…` through the real app (`next start`,
// PostgreSQL) with 2,000 stored resources, then with 200,000 (the same clinic; rows seeded with SQL, ten
// Observations a patient, so every searched patient has ten matches either way). Each phase: a warm-up, then
// REQUESTS sequential searches over 200 patients; the p95 latency is kept. `ratio` = p95 at 200k / p95 at 2k,
// target at most 2: the search follows the (clinicId, resourceType, patientRef) index instead of scanning JSON.
// Needs a build (NEXT_DIST_DIR, default .next) and the local PostgreSQL the HTTP tests use.
// The last line is one JSON object {"name","ratio","target",...}.
import { startApp } from '../test/support/app';
import { createTenant, createUser } from '../test/support/factories';
import { signIn, type HttpClient } from '../test/support/http';

const SMALL = 2_000;
const LARGE = 200_000;
const PER_PATIENT = 10;
const SEARCHED_PATIENTS = 200;
const WARM_UP = 50;
const REQUESTS = 400;

// Rows [from, to) of the clinic's Observations: observation g belongs to patient-{g / 10}; patientRef as the store
// writes it (patient-ref.ts; no source, so the served id is the original one).
const SEED_SQL = `
INSERT INTO "FhirResource" ("id", "clinicId", "source", "resourceType", "resourceId", "versionId", "lastUpdated", "contentHash", "resource", "patientRef")
SELECT 'fr_' || gen_random_uuid(), $1, '', 'Observation', 'obs-' || g, 1, ts, md5(g::text),
  jsonb_build_object(
    'resourceType', 'Observation', 'id', 'obs-' || g,
    'meta', jsonb_build_object('versionId', '1', 'lastUpdated', to_char(ts, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
    'status', 'final',
    'subject', jsonb_build_object('reference', 'Patient/patient-' || (g / ${PER_PATIENT})),
    'code', jsonb_build_object('coding', jsonb_build_array(jsonb_build_object('system', 'http://loinc.org', 'code', (1000 + g % 97) || '-' || (g % 10), 'display', 'Synthetic measurement'))),
    'valueQuantity', jsonb_build_object('value', (g % 200) / 2.0, 'unit', 'mg/dL'),
    'note', jsonb_build_array(jsonb_build_object('text', md5('note' || g)))
  ),
  'patient-' || (g / ${PER_PATIENT})
FROM generate_series($2::int, $3::int - 1) AS g, LATERAL (SELECT timestamp '2024-01-01' + g * interval '1 minute' AS ts) AS t`;

const app = await startApp({ env: { LOG_LEVEL: 'error' } });

async function seed(clinicId: string, from: number, to: number): Promise<void> {
  for (let start = from; start < to; start += 50_000) {
    await app.db.$executeRawUnsafe(SEED_SQL, clinicId, start, Math.min(to, start + 50_000));
  }
  await app.db.$executeRawUnsafe('ANALYZE "FhirResource"');
}

async function p95(client: HttpClient): Promise<{ p95: number; median: number }> {
  const search = async (i: number) => {
    const patient = `patient-${(i * 37) % SEARCHED_PATIENTS}`;
    const start = process.hrtime.bigint();
    const res = await client.get(`/api/fhir/Observation?patient=${patient}`);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (res.status !== 200 || res.body.total !== PER_PATIENT) {
      throw new Error(`search for ${patient} answered ${res.status} with total ${res.body?.total}`);
    }
    return ms;
  };
  for (let i = 0; i < WARM_UP; i++) await search(i);
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) times.push(await search(i));
  times.sort((a, b) => a - b);
  return { p95: times[Math.floor(times.length * 0.95)]!, median: times[Math.floor(times.length / 2)]! };
}

try {
  const tenant = await createTenant(app.db, 'Search');
  const user = await createUser(app.db, tenant, { scopes: ['patients:read'] });
  const client = await signIn(app, user.email, user.password);
  await seed(tenant.clinicId, 0, SMALL);
  const small = await p95(client);
  await seed(tenant.clinicId, SMALL, LARGE);
  const large = await p95(client);
  const rows = await app.db.fhirResource.count({ where: { clinicId: tenant.clinicId } });
  console.error(
    `p95 ${small.p95.toFixed(1)} ms at ${SMALL} rows, ${large.p95.toFixed(1)} ms at ${rows} rows (medians ${small.median.toFixed(1)} / ${large.median.toFixed(1)} ms)`,
  );
  console.log(
    JSON.stringify({
      name: 'fhir-search',
      ratio: Number((large.p95 / small.p95).toFixed(3)),
      target: 2,
      note: 'ratio = p95 at 200k / p95 at 2k; lower is better, at most the target',
      p95Ms: { [SMALL]: Number(small.p95.toFixed(1)), [LARGE]: Number(large.p95.toFixed(1)) },
      medianMs: { [SMALL]: Number(small.median.toFixed(1)), [LARGE]: Number(large.median.toFixed(1)) },
      requests: REQUESTS,
      rows,
      database: 'postgres',
    }),
  );
} finally {
  await app.stop();
}
