// npm run bench -- webhook-ingest: verified payment.succeeded events per second through the real route (the
// built app under `next start`: HMAC check, envelope and data parsing, then the delivery row, payment, bill update
// and ledger posting in one statement) against the same server's health route (one SELECT 1), at the same
// concurrency, measured in one run: no route of this server can ingest faster than it answers health, so the
// ratio says what the ingest path itself costs, whatever the machine's load. Beside it, for the reader, the same
// writes sent directly through `pg` as one statement written here. Prints the ratio as the last line.
// Needs a build (NEXT_DIST_DIR, default .next) and the local PostgreSQL the HTTP tests use.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { signBody } from '../lib/webhooks/verify-signature';
import { startApp, TEST_SECRETS } from '../test/support/app';
import { median } from './support/median';

// In-flight deliveries, as a partner's parallel webhook workers would send them. BENCH_CONCURRENCY overrides
// it for exploring the curve; the reported ratio uses the default.
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const EVENTS_PER_ROUND = Number(process.env.BENCH_EVENTS ?? 600);
const ROUNDS = 5;
const WARM_UP_EVENTS = 800;
const BILLS = 64; // spread over many bills so the comparison is not a row-lock queue on one
const POOL_SIZE = 10; // node-postgres' default, which is also what the app's PrismaPg pool uses

const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;

type Event = {
  eventId: string;
  deliveryId: string;
  raw: string;
  signature: string;
  paymentId: string;
  billId: string;
  amountCents: number;
  correlationId: string;
};

function makeEvents(count: number, billIds: string[]): Event[] {
  return Array.from({ length: count }, (_, i) => {
    const paymentId = uid('pay');
    const billId = billIds[i % billIds.length]!;
    const amountCents = 1 + (i % 97);
    const eventId = uid('evt');
    const raw = JSON.stringify({
      id: eventId,
      type: 'payment.succeeded',
      createdAt: new Date().toISOString(),
      clinicId: 'clinic_north',
      data: { paymentId, billId, amountCents, currency: 'USD' },
    });
    return {
      eventId,
      deliveryId: uid('dlv'),
      raw,
      signature: signBody(Buffer.from(raw), TEST_SECRETS.WEBHOOK_SECRET_PAYMENT),
      paymentId,
      billId,
      amountCents,
      correlationId: randomUUID(),
    };
  });
}

// node:http rather than fetch: this load generator shares the machine's cores with the server, and fetch costs
// it about twice the CPU per request (more for a POST with a JSON answer than for health's GET), which would
// bill the route for the client's work.
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

async function runConcurrently<T>(events: T[], send: (event: T) => Promise<void>): Promise<number> {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < events.length) await send(events[next++]!);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return events.length / seconds;
}

// What the route writes for a payment.succeeded to a bill that can hold it, as one statement sent straight
// through pg: the delivery row, the payment, the bill's new total and a balanced two-line ledger posting (the
// bench's bills are large, so the whole amount reduces the receivable).
const DIRECT_INGEST = `WITH delivery AS (
    INSERT INTO "WebhookDelivery" ("id", "receiver", "deliveryId", "eventType", "clinicId", "outcome", "correlationId", "receivedAt", "envelopeId")
    VALUES ($1, 'payment', $2, 'payment.succeeded', 'clinic_north', 'applied', $3, $4, $5) ON CONFLICT DO NOTHING RETURNING 1
  ), payment AS (
    INSERT INTO "Payment" ("id", "clinicId", "billId", "amountCents", "currency", "status")
    SELECT $6, 'clinic_north', $7, $8::bigint, 'USD', 'succeeded' FROM delivery RETURNING 1
  ), bill AS (
    UPDATE "PatientBill" SET "paidCents" = "paidCents" + $8, "updatedAt" = $4 WHERE "id" = $7 AND EXISTS (SELECT 1 FROM payment) RETURNING 1
  ), ledger AS (
    INSERT INTO "LedgerTransaction" ("id", "clinicId", "kind", "reference", "correlationId", "createdAt")
    SELECT $9, 'clinic_north', 'payment.succeeded', 'payment:' || $6, $3, $4 FROM bill
  )
  INSERT INTO "LedgerEntry" ("id", "transactionId", "account", "amountCents")
  SELECT $9 || '_1', $9, 'assets:cash', $8::bigint FROM bill
  UNION ALL SELECT $9 || '_2', $9, 'assets:patient-receivable', -$8::bigint FROM bill`;

async function direct(pool: pg.Pool, event: Event): Promise<void> {
  const result = await pool.query(DIRECT_INGEST, [
    uid('whd'),
    event.deliveryId,
    event.correlationId,
    new Date(),
    event.eventId,
    event.paymentId,
    event.billId,
    event.amountCents,
    uid('ltx'),
  ]);
  if (result.rowCount !== 2) throw new Error('direct path: payment not applied');
}

const app = await startApp();
const pool = new pg.Pool({ connectionString: app.database!.url, max: POOL_SIZE });
try {
  const newBills = async () => {
    const ids = Array.from({ length: BILLS }, () => uid('bill'));
    await app.db.patientBill.createMany({
      data: ids.map((id) => ({ id, clinicId: 'clinic_north', patientId: 'pat_n_001', amountCents: 2_000_000_000 })),
    });
    return ids;
  };
  const viaRoute = async (event: Event) => {
    const res = await request(`${app.url}/api/webhooks/payment`, {
      method: 'POST',
      body: event.raw,
      headers: {
        'content-type': 'application/json',
        'x-svc-signature': event.signature,
        'x-svc-delivery': event.deliveryId,
      },
    });
    const body = JSON.parse(res.text) as { outcome?: string };
    if (res.status !== 200 || body.outcome !== 'applied') throw new Error(`route answered ${res.status} ${res.text}`);
  };
  const viaPg = (event: Event) => direct(pool, event);
  // The ceiling for anything served by this app process: its cheapest route (health: one SELECT 1), at the
  // same concurrency. No route of this server can ingest faster than it answers health.
  const viaHealth = async () => {
    const res = await request(`${app.url}/api/health`);
    if (res.status !== 200) throw new Error(`health answered ${res.status}`);
  };

  // Warm-up to steady state: JIT (the server's first few hundred requests run at half speed), connection
  // pools, Next's route cache.
  await runConcurrently(makeEvents(WARM_UP_EVENTS, await newBills()), viaRoute);
  await runConcurrently(makeEvents(WARM_UP_EVENTS, await newBills()), viaPg);

  await runConcurrently(Array.from({ length: WARM_UP_EVENTS }), viaHealth);

  const routeRates: number[] = [];
  const directRates: number[] = [];
  const healthRates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved so all three see the same machine load (the cores are shared).
    routeRates.push(await runConcurrently(makeEvents(EVENTS_PER_ROUND, await newBills()), viaRoute));
    healthRates.push(await runConcurrently(Array.from({ length: EVENTS_PER_ROUND }), viaHealth));
    directRates.push(await runConcurrently(makeEvents(EVENTS_PER_ROUND, await newBills()), viaPg));
  }

  // Both paths did the same work: every event applied once and posted one balanced transaction.
  const applied = await app.db.payment.count();
  const unbalanced = await app.db.$queryRawUnsafe<unknown[]>(
    'SELECT "transactionId" FROM "LedgerEntry" GROUP BY "transactionId" HAVING SUM("amountCents") <> 0',
  );
  const expected = 2 * WARM_UP_EVENTS + 2 * ROUNDS * EVENTS_PER_ROUND;
  if (applied !== expected || unbalanced.length !== 0)
    throw new Error(`bench integrity: ${applied} payments (expected ${expected}), ${unbalanced.length} unbalanced`);

  // Each round's route rate against the health rate measured right after it, under the same load.
  const ratios = routeRates.map((rate, round) => rate / healthRates[round]!);
  const routePerSecond = median(routeRates);
  const directPerSecond = median(directRates);
  const healthPerSecond = median(healthRates);
  const rounds = (rates: number[]) => rates.map((r) => r.toFixed(0)).join(', ');
  console.error(
    `route rounds: ${rounds(routeRates)} events/s; health rounds: ${rounds(healthRates)} requests/s; direct rounds: ${rounds(directRates)} events/s`,
  );
  console.error(`route / health by round: ${ratios.map((r) => r.toFixed(3)).join(', ')}`);
  console.log(
    JSON.stringify({
      name: 'webhook-ingest',
      ratio: Number(median(ratios).toFixed(3)),
      target: 0.8,
      roundRatios: ratios.map((r) => Number(r.toFixed(3))),
      routeEventsPerSecond: Math.round(routePerSecond),
      healthRequestsPerSecond: Math.round(healthPerSecond),
      directEventsPerSecond: Math.round(directPerSecond),
      // The earlier figures, against the direct pg statement: the route's share of it, and health's (its ceiling).
      routeToDirectRatio: Number((routePerSecond / directPerSecond).toFixed(3)),
      ceilingRatio: Number((healthPerSecond / directPerSecond).toFixed(3)),
      concurrency: CONCURRENCY,
      eventsPerRound: EVENTS_PER_ROUND,
      rounds: ROUNDS,
    }),
  );
} finally {
  agent.destroy();
  await pool.end();
  await app.stop();
}
