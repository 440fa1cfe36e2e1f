// npm run bench -- webhook-ingest: verified payment.succeeded events per second through the real route (the
// built app under `next start`, HMAC check, envelope and data parsing, the delivery row, payment, bill update
// and ledger posting in one transaction) against the same SQL transaction sent directly through `pg`, on the
// same PostgreSQL database, at the same concurrency, measured in one run. Prints the ratio as the last line.
// Needs a build (NEXT_DIST_DIR, default .next) and the local PostgreSQL the HTTP tests use.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { signBody } from '../lib/webhooks/verify-signature';
import { INSERT_DELIVERY } from '../lib/webhooks/receive-event';
import { RECORD_SUCCEEDED } from '../lib/webhooks/record-payment';
import { ledgerInsertSql } from '../lib/ledger/post-ledger-transaction';
import { startApp, TEST_SECRETS } from '../test/support/app';

// In-flight deliveries, as a partner's parallel webhook workers would send them. BENCH_CONCURRENCY overrides
// it for exploring the curve; the reported ratio uses the default.
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const EVENTS_PER_ROUND = Number(process.env.BENCH_EVENTS ?? 600);
const ROUNDS = 3;
const WARM_UP_EVENTS = 800;
const BILLS = 64; // spread over many bills so the comparison is not a row-lock queue on one
const POOL_SIZE = 10; // node-postgres' default, which is also what the app's PrismaPg pool uses

const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;

type Event = { eventId: string; deliveryId: string; raw: string; signature: string; paymentId: string; billId: string; amountCents: number; correlationId: string };

function makeEvents(count: number, billIds: string[]): Event[] {
  return Array.from({ length: count }, (_, i) => {
    const paymentId = uid('pay');
    const billId = billIds[i % billIds.length]!;
    const amountCents = 1 + (i % 97);
    const eventId = uid('evt');
    const raw = JSON.stringify({
      id: eventId, type: 'payment.succeeded', createdAt: new Date().toISOString(), clinicId: 'clinic_north',
      data: { paymentId, billId, amountCents, currency: 'USD' },
    });
    return { eventId, deliveryId: uid('dlv'), raw, signature: signBody(Buffer.from(raw), TEST_SECRETS.WEBHOOK_SECRET_PAYMENT), paymentId, billId, amountCents, correlationId: randomUUID() };
  });
}

async function runConcurrently<T>(events: T[], send: (event: T) => Promise<void>): Promise<number> {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < events.length) await send(events[next++]!);
  }));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return events.length / seconds;
}

// The route's transaction for a payment.succeeded to a bill, statement for statement: the same constant SQL
// text (imported from the modules that run it) with the same parameters.
async function direct(pool: pg.Pool, event: Event): Promise<void> {
  const client = await pool.connect();
  try {
    const now = new Date();
    await client.query('BEGIN');
    await client.query(INSERT_DELIVERY, [uid('whd'), 'payment', event.deliveryId, 'payment.succeeded', 'clinic_north', event.correlationId, now, event.eventId]);
    const applied = await client.query(RECORD_SUCCEEDED('bill'), [event.paymentId, 'clinic_north', event.billId, null, event.amountCents, now]);
    if (applied.rowCount !== 1) throw new Error('direct path: payment not applied');
    const ltx = uid('ltx');
    await client.query(ledgerInsertSql(2), [
      ltx, 'clinic_north', 'payment.succeeded', `payment:${event.paymentId}`, event.correlationId, now,
      `${ltx}_1`, 'assets:cash', event.amountCents, `${ltx}_2`, 'assets:patient-receivable', -event.amountCents,
    ]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

const app = await startApp();
const pool = new pg.Pool({ connectionString: app.database!.url, max: POOL_SIZE });
try {
  const newBills = async () => {
    const ids = Array.from({ length: BILLS }, () => uid('bill'));
    await app.db.patientBill.createMany({ data: ids.map((id) => ({ id, clinicId: 'clinic_north', patientId: 'pat_n_001', amountCents: 2_000_000_000 })) });
    return ids;
  };
  const viaRoute = async (event: Event) => {
    const res = await fetch(`${app.url}/api/webhooks/payment`, {
      method: 'POST', body: event.raw,
      headers: { 'content-type': 'application/json', 'x-svc-signature': event.signature, 'x-svc-delivery': event.deliveryId },
    });
    const body = (await res.json()) as { outcome?: string };
    if (res.status !== 200 || body.outcome !== 'applied') throw new Error(`route answered ${res.status} ${JSON.stringify(body)}`);
  };
  const viaPg = (event: Event) => direct(pool, event);
  // The ceiling for anything served by this app process: its cheapest route (health: one SELECT 1), at the
  // same concurrency. No route of this server can ingest faster than it answers health.
  const viaHealth = async () => {
    const res = await fetch(`${app.url}/api/health`);
    await res.arrayBuffer();
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
    // Interleaved so both see the same machine load (the cores are shared).
    routeRates.push(await runConcurrently(makeEvents(EVENTS_PER_ROUND, await newBills()), viaRoute));
    directRates.push(await runConcurrently(makeEvents(EVENTS_PER_ROUND, await newBills()), viaPg));
    healthRates.push(await runConcurrently(Array.from({ length: EVENTS_PER_ROUND }), viaHealth));
  }

  // Both paths did the same work: every event applied once and posted one balanced transaction.
  const applied = await app.db.payment.count();
  const unbalanced = await app.db.$queryRawUnsafe<unknown[]>('SELECT "transactionId" FROM "LedgerEntry" GROUP BY "transactionId" HAVING SUM("amountCents") <> 0');
  const expected = 2 * WARM_UP_EVENTS + 2 * ROUNDS * EVENTS_PER_ROUND;
  if (applied !== expected || unbalanced.length !== 0) throw new Error(`bench integrity: ${applied} payments (expected ${expected}), ${unbalanced.length} unbalanced`);

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const routePerSecond = median(routeRates);
  const directPerSecond = median(directRates);
  const healthPerSecond = median(healthRates);
  const rounds = (rates: number[]) => rates.map((r) => r.toFixed(0)).join(', ');
  console.error(`route rounds: ${rounds(routeRates)} events/s; direct rounds: ${rounds(directRates)} events/s; health rounds: ${rounds(healthRates)} requests/s`);
  console.log(JSON.stringify({
    name: 'webhook-ingest',
    ratio: Number((routePerSecond / directPerSecond).toFixed(3)),
    target: 0.6,
    routeEventsPerSecond: Math.round(routePerSecond),
    directEventsPerSecond: Math.round(directPerSecond),
    // What the ratio could be at most through this server: its health route against the same direct baseline.
    healthRequestsPerSecond: Math.round(healthPerSecond),
    ceilingRatio: Number((healthPerSecond / directPerSecond).toFixed(3)),
    concurrency: CONCURRENCY,
    eventsPerRound: EVENTS_PER_ROUND,
    rounds: ROUNDS,
  }));
} finally {
  await pool.end();
  await app.stop();
}
