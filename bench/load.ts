// npm run bench -- load: throughput and latency of the real app under load (autocannon, loopback only):
// health (the bare route: baseline), eligibility verify on a cache hit, and signed payment-webhook ingest.
// Targets: verify at least 50 % of health's requests per second, with p99 at most 3x health's p99.
// The last line is one JSON object {"name","ratio","target",...}; ratios come from this one run.
// BENCH_SERVER_NODE_OPTIONS is handed to the server as NODE_OPTIONS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
import fs from 'node:fs';
import autocannon from 'autocannon';
import { startApp, TEST_SECRETS } from '../test/support/app';
import { signIn } from '../test/support/http';
import { signBody } from '../lib/webhooks/verify-signature';
import { median } from './support/median';

const DURATION_SECONDS = Number(process.argv[3] ?? 4);
const CONNECTIONS = 16;
// Rounds of health, verify and webhook in turn: the cores are shared with whatever else the machine does, so
// each ratio compares neighbours in time, and the reported figures are the medians over the rounds.
const ROUNDS = 3;

type Result = { rps: number; p50: number; p99: number; non2xx: number; errors: number };

async function load(options: autocannon.Options): Promise<Result> {
  const result = await autocannon({ duration: DURATION_SECONDS, connections: CONNECTIONS, ...options });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

const peakRssMb = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024);
};

const app = await startApp({ env: { LOG_LEVEL: 'error', NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } });
try {
  const staff = await signIn(app, 'admin@northside.test');
  const verifyBody = JSON.stringify({
    patientId: 'pat_n_001',
    firstName: 'Avery',
    lastName: 'Northside001',
    dob: '1971-02-11',
    memberId: 'DEMO-ACTIVE-N001',
    payerName: 'Aetna',
    npi: '1234567893',
    serviceType: '30',
  });
  const warm = await staff.post('/api/eligibility/verify', JSON.parse(verifyBody));
  if (warm.status !== 200) throw new Error(`verify warm-up failed: ${warm.status} ${warm.text}`);
  const cookie = staff.cookieHeader();

  let delivery = 0;
  const targets: Record<'health' | 'verify' | 'webhook', autocannon.Options> = {
    health: { url: `${app.url}/api/health` },
    verify: {
      url: `${app.url}/api/eligibility/verify`,
      method: 'POST',
      body: verifyBody,
      headers: { 'content-type': 'application/json', cookie },
    },
    webhook: {
      url: `${app.url}/api/webhooks/payment`,
      requests: [
        {
          method: 'POST',
          setupRequest: (request) => {
            const id = `load-${Date.now()}-${delivery++}`;
            const body = JSON.stringify({
              id,
              type: 'payment.succeeded',
              createdAt: new Date().toISOString(),
              clinicId: 'clinic_north',
              data: { paymentId: `pay_${id}`, billId: 'bill_n_001', amountCents: 1, currency: 'USD' },
            });
            return {
              ...request,
              body,
              headers: {
                'content-type': 'application/json',
                'x-svc-delivery': id,
                'x-svc-signature': `sha256=${signBody(new TextEncoder().encode(body), TEST_SECRETS.WEBHOOK_SECRET_PAYMENT)}`,
              },
            };
          },
        },
      ],
    },
  };

  // Warm-up pass so JIT and connection pools are in steady state before measuring.
  for (const options of Object.values(targets)) await autocannon({ ...options, duration: 2, connections: CONNECTIONS });
  const rounds: Record<keyof typeof targets, Result>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    rounds.push({
      health: await load(targets.health),
      verify: await load(targets.verify),
      webhook: await load(targets.webhook),
    });
  }
  const medianOf = (name: keyof typeof targets): Result => ({
    rps: median(rounds.map((r) => r[name].rps)),
    p50: median(rounds.map((r) => r[name].p50)),
    p99: median(rounds.map((r) => r[name].p99)),
    non2xx: rounds.reduce((sum, r) => sum + r[name].non2xx, 0),
    errors: rounds.reduce((sum, r) => sum + r[name].errors, 0),
  });
  const [health, verify, webhook] = [medianOf('health'), medianOf('verify'), medianOf('webhook')];
  const rss = peakRssMb(app.pid);
  const ratio = Number(median(rounds.map((r) => r.verify.rps / r.health.rps)).toFixed(3));
  const p99Ratio = Number(median(rounds.map((r) => r.verify.p99 / Math.max(1, r.health.p99))).toFixed(2));
  console.log(`verify/health by round: ${rounds.map((r) => (r.verify.rps / r.health.rps).toFixed(3)).join(', ')}`);
  for (const [name, r] of Object.entries({ health, verify, webhook })) {
    console.log(
      `${name.padEnd(8)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors}`,
    );
  }
  console.log(
    JSON.stringify({
      name: 'load',
      ratio,
      target: 0.5,
      p99Ratio,
      p99Target: 3,
      rounds: ROUNDS,
      secondsPerRun: DURATION_SECONDS,
      healthRps: Math.round(health.rps),
      verifyRps: Math.round(verify.rps),
      webhookRps: Math.round(webhook.rps),
      healthP50Ms: health.p50,
      healthP99Ms: health.p99,
      verifyP50Ms: verify.p50,
      verifyP99Ms: verify.p99,
      webhookP50Ms: webhook.p50,
      webhookP99Ms: webhook.p99,
      non2xx: { health: health.non2xx, verify: verify.non2xx, webhook: webhook.non2xx },
      serverPeakRssMb: rss,
    }),
  );
} finally {
  await app.stop();
}
