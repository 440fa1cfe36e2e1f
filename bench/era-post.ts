// npm run bench -- era-post: a generated, balanced 835 of 5,000 claims (against 5,000 submitted claims seeded
// straight into the database) posted through the staff upload route of the built app (session, body stream, X12
// read and balancing, the posting transaction), against the floor: the very rows that posting wrote, copied for
// a second clinic's seeded claims and written with the cheapest direct SQL (one statement per table, the rows as
// one JSON parameter, in one transaction that commits through the same ledger balance trigger), measured in the
// same run, three rounds, medians. `ratio` = floor time / route time, target at least 0.3.
// Then `rssGrowthMb`: the server's peak RSS while posting a 50 MiB 835 less its peak while posting a 5 MiB one
// (sampled every 10 ms from /proc), target at most 100.
// Needs a build (NEXT_DIST_DIR, default .next) and the local PostgreSQL the HTTP tests use.
// BENCH_SERVER_NODE_OPTIONS is handed to the server as NODE_OPTIONS (e.g. `--trace-gc`, `--heap-prof`).
import fs from 'node:fs';
import http from 'node:http';
import pg from 'pg';
import { startApp } from '../test/support/app';
import { createTenant, createUser } from '../test/support/factories';
import { signIn } from '../test/support/http';
import { largeClaimSet, largeRemittance, largeX12, seedClaims, type SeededClaim } from '../test/support/large-835';
import { median } from './support/median';

const CLAIMS = 5_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET = 0.3;
const RSS_TARGET_MB = 100;

const app = await startApp({ env: { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } });
const pool = new pg.Pool({ connectionString: app.env.DATABASE_URL, max: 2 });

async function uploader(name: string) {
  const tenant = await createTenant(app.db, name);
  const user = await createUser(app.db, tenant, { scopes: ['svcpay:read', 'svcpay:write'] });
  const client = await signIn(app, user.email, user.password);
  return { tenant, cookie: client.cookieHeader() };
}

/** Posts the 835 as application/edi-x12 over node:http (no fetch overhead billed to the route); ms and body. */
function upload(cookie: string, x12: string): Promise<{ ms: number; status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const req = http.request(
      `${app.url}/api/remittances`,
      {
        method: 'POST',
        // A fresh connection each time: a kept-alive socket idle past the server's keep-alive timeout (the seeding and
        // the 50 MiB file take longer) is closed under the next write (EPIPE).
        agent: false,
        headers: {
          cookie,
          'content-type': 'application/edi-x12',
          'content-length': Buffer.byteLength(x12),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            ms: Number(process.hrtime.bigint() - start) / 1e6,
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    // A server that answers before the body is all sent (a refusal) closes the socket under the writer: the answer
    // still arrives, so the write's error waits a moment for it.
    req.on('error', (cause) => setTimeout(() => reject(cause), 2_000));
    req.end(x12);
  });
}

// The tables an 835 posting writes, with the clinic-scoped query that finds its rows (LedgerEntry through its
// transaction). The floor copies exactly these rows.
const INSERTED: [table: string, where: string][] = [
  ['Remittance', `"clinicId" = $1`],
  ['LedgerTransaction', `"clinicId" = $1`],
  ['LedgerEntry', `"transactionId" IN (SELECT "id" FROM "LedgerTransaction" WHERE "clinicId" = $1)`],
  ['PatientBill', `"clinicId" = $1`],
  ['ClaimEvent', `"clinicId" = $1`],
  ['ClaimTransmission', `"clinicId" = $1`],
  ['RemittanceClaim', `"clinicId" = $1`],
];
const UPDATED: [table: string, columns: string[]][] = [
  ['Claim', ['paidCents', 'patientResponsibilityCents', 'adjustmentCents', 'status', 'statusReason', 'updatedAt']],
  ['ClaimLine', ['paidCents']],
];

type Rows = Map<string, string>;

/** The rows the route wrote for clinic `from`, as JSON text re-keyed for clinic `to` (ids and claim ids renamed). */
async function rowsFor(from: { clinicId: string; prefix: string }, to: { clinicId: string; prefix: string }) {
  const rows: Rows = new Map();
  const rename = (json: string) =>
    json
      .replaceAll(from.clinicId, to.clinicId)
      .replaceAll(`"${from.prefix}_`, `"${to.prefix}_`)
      .replaceAll(/"(rem|ltx|bill|cev|ctx|rcl)_([0-9a-f]{32})/g, '"$1_$2f')
      .replaceAll(/"id":"(c[a-z0-9]{20,})"/g, '"id":"$1f"');
  for (const [table, where] of INSERTED) {
    const { rows: found } = await pool.query<{ j: string }>(
      `SELECT coalesce(json_agg(t), '[]')::text AS j FROM "${table}" t WHERE ${where}`,
      [from.clinicId],
    );
    rows.set(table, rename(found[0]!.j));
  }
  for (const [table] of UPDATED) {
    const { rows: found } = await pool.query<{ j: string }>(
      `SELECT coalesce(json_agg(t), '[]')::text AS j FROM "${table}" t WHERE "clinicId" = $1`,
      [from.clinicId],
    );
    rows.set(table, rename(found[0]!.j));
  }
  return rows;
}

/** The floor: every row in one statement per table, one transaction. */
async function writeFloor(rows: Rows): Promise<number> {
  const client = await pool.connect();
  const start = process.hrtime.bigint();
  try {
    await client.query('BEGIN');
    for (const [table] of INSERTED) {
      await client.query(`INSERT INTO "${table}" SELECT * FROM json_populate_recordset(null::"${table}", $1::json)`, [
        rows.get(table),
      ]);
    }
    for (const [table, columns] of UPDATED) {
      const set = columns.map((c) => `"${c}" = r."${c}"`).join(', ');
      await client.query(
        `UPDATE "${table}" t SET ${set} FROM json_populate_recordset(null::"${table}", $1::json) r WHERE t."id" = r."id"`,
        [rows.get(table)],
      );
    }
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function oneRound(round: number): Promise<{ routeMs: number; floorMs: number }> {
  const routePrefix = `clm_r${round}a`;
  const floorPrefix = `clm_r${round}b`;
  const { tenant, cookie } = await uploader(`Route ${round}`);
  const floorTenant = await createTenant(app.db, `Floor ${round}`);
  const claims = largeClaimSet(routePrefix, CLAIMS);
  await seedClaims(app.db, tenant.clinicId, claims);
  await seedClaims(
    app.db,
    floorTenant.clinicId,
    claims.map((c): SeededClaim => ({ ...c, id: c.id.replace(routePrefix, floorPrefix) })),
  );
  const x12 = largeX12(largeRemittance(claims, { traceNumber: `BENCH${round}` }));
  const posted = await upload(cookie, x12);
  if (posted.status !== 200 || !posted.body.includes(`"claimsPosted":${CLAIMS}`)) {
    throw new Error(`the upload failed: ${posted.status} ${posted.body.slice(0, 300)}`);
  }
  const rows = await rowsFor(
    { clinicId: tenant.clinicId, prefix: routePrefix },
    { clinicId: floorTenant.clinicId, prefix: floorPrefix },
  );
  const floorMs = await writeFloor(rows);
  return { routeMs: posted.ms, floorMs };
}

/** The server's peak RSS in MiB while `work` runs, sampled every 10 ms. */
async function peakRssMb(work: () => Promise<unknown>): Promise<number> {
  const read = () => {
    const status = fs.readFileSync(`/proc/${app.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  };
  let peak = read();
  const timer = setInterval(() => (peak = Math.max(peak, read())), 10);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, read());
}

/** Peak RSS while posting an 835 of about `mib` MiB (the 5,000 claims paid over and over, one CLP each time). */
async function rssFor(mib: number, name: string): Promise<{ peakMb: number; bytes: number; status: number }> {
  const { tenant, cookie } = await uploader(name);
  const claims = largeClaimSet(`clm_${name.toLowerCase()}`, CLAIMS);
  await seedClaims(app.db, tenant.clinicId, claims);
  const once = largeX12(largeRemittance(claims, { traceNumber: `${name}0` })).length;
  const x12 = largeX12(
    largeRemittance(claims, { traceNumber: `${name}1`, repeat: Math.max(1, Math.floor((mib * 1024 * 1024) / once)) }),
  );
  let status = 0;
  const peakMb = await peakRssMb(async () => {
    const answer = await upload(cookie, x12).catch((cause: unknown) => {
      console.error(`the ${name} upload failed: ${String(cause)}\n${app.logs().slice(-3000)}`);
      return { status: 0, body: '' };
    });
    status = answer.status;
    if (status !== 200) console.error(`${name}: ${answer.status} ${answer.body.slice(0, 300)}`);
  });
  return { peakMb, bytes: x12.length, status };
}

try {
  if (ROUNDS > 0) await oneRound(-1); // warm-up: compiles the route, fills the pools
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const result = await oneRound(round);
    rounds.push(result);
    console.log(`round ${round}: route ${result.routeMs.toFixed(0)} ms, floor ${result.floorMs.toFixed(0)} ms`);
  }
  // BENCH_ROUNDS=0 measures only the RSS figures: the timing fields are then null.
  const routeMs = rounds.length > 0 ? median(rounds.map((r) => r.routeMs)) : NaN;
  const floorMs = rounds.length > 0 ? median(rounds.map((r) => r.floorMs)) : NaN;
  const small = await rssFor(5, 'Small');
  const large = await rssFor(50, 'Large');
  console.log(`5 MiB: ${small.bytes} bytes, ${small.status}, peak ${small.peakMb.toFixed(0)} MiB`);
  console.log(`50 MiB: ${large.bytes} bytes, ${large.status}, peak ${large.peakMb.toFixed(0)} MiB`);
  console.log(
    JSON.stringify({
      name: 'era-post',
      ratio: Number((floorMs / routeMs).toFixed(3)),
      target: TARGET,
      claims: CLAIMS,
      routeMs: Math.round(routeMs),
      floorMs: Math.round(floorMs),
      msPerClaim: Number((routeMs / CLAIMS).toFixed(3)),
      // Null unless both uploads posted: a refused upload's peak says nothing about posting.
      rssGrowthMb: small.status === 200 && large.status === 200 ? Math.round(large.peakMb - small.peakMb) : null,
      rssPeaksMb: [Math.round(small.peakMb), Math.round(large.peakMb)],
      rssTargetMb: RSS_TARGET_MB,
      rssStatuses: [small.status, large.status],
    }),
  );
} finally {
  await pool.end();
  await app.stop();
}
