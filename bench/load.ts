// npm run bench -- load: throughput and latency of the real app under load (autocannon, loopback only):
// health (the bare route: baseline), eligibility verify on a cache hit, and signed payment-webhook ingest.
// Targets: verify at least 50 % of health's requests per second, with p99 at most 3x health's p99.
// The last line is one JSON object {"name","ratio","target",...}; ratios come from this one run.
import fs from 'node:fs';
import autocannon from 'autocannon';
import { startApp, TEST_SECRETS } from '../test/support/app';
import { signIn } from '../test/support/http';
import { signBody } from '../lib/webhooks/verify-signature';

const DURATION_SECONDS = Number(process.argv[3] ?? 8);
const CONNECTIONS = 16;

type Result = { rps: number; p50: number; p99: number; non2xx: number; errors: number };

async function load(options: autocannon.Options): Promise<Result> {
  const result = await autocannon({ duration: DURATION_SECONDS, connections: CONNECTIONS, ...options });
  return {
    rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99,
    non2xx: result.non2xx, errors: result.errors + result.timeouts,
  };
}

const peakRssMb = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024);
};

const app = await startApp({ env: { LOG_LEVEL: 'error' } });
try {
  const staff = await signIn(app, 'admin@northside.test');
  const verifyBody = JSON.stringify({
    patientId: 'pat_n_001', firstName: 'Avery', lastName: 'Northside001', dob: '1971-02-11',
    memberId: 'DEMO-ACTIVE-N001', payerName: 'Aetna', npi: '1234567893', serviceType: '30',
  });
  const warm = await staff.post('/api/eligibility/verify', JSON.parse(verifyBody));
  if (warm.status !== 200) throw new Error(`verify warm-up failed: ${warm.status} ${warm.text}`);
  const cookie = staff.cookieHeader();

  // Warm-up pass so JIT and connection pools are in steady state before measuring.
  await autocannon({ url: `${app.url}/api/health`, duration: 2, connections: CONNECTIONS });
  const health = await load({ url: `${app.url}/api/health` });
  const verify = await load({
    url: `${app.url}/api/eligibility/verify`, method: 'POST', body: verifyBody,
    headers: { 'content-type': 'application/json', cookie },
  });
  let delivery = 0;
  const webhook = await load({
    url: `${app.url}/api/webhooks/payment`,
    requests: [{
      method: 'POST',
      setupRequest: (request) => {
        const id = `load-${Date.now()}-${delivery++}`;
        const body = JSON.stringify({
          id, type: 'payment.succeeded', createdAt: new Date().toISOString(), clinicId: 'clinic_north',
          data: { paymentId: `pay_${id}`, billId: 'bill_n_001', amountCents: 1, currency: 'USD' },
        });
        return {
          ...request, body,
          headers: { 'content-type': 'application/json', 'x-svc-delivery': id, 'x-svc-signature': `sha256=${signBody(new TextEncoder().encode(body), TEST_SECRETS.WEBHOOK_SECRET_PAYMENT)}` },
        };
      },
    }],
  });
  const rss = peakRssMb(app.pid);
  const ratio = Number((verify.rps / health.rps).toFixed(3));
  const p99Ratio = Number((verify.p99 / Math.max(1, health.p99)).toFixed(2));
  for (const [name, r] of Object.entries({ health, verify, webhook })) {
    console.log(`${name.padEnd(8)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors}`);
  }
  console.log(JSON.stringify({
    name: 'load', ratio, target: 0.5, p99Ratio, p99Target: 3,
    healthRps: Math.round(health.rps), verifyRps: Math.round(verify.rps), webhookRps: Math.round(webhook.rps),
    healthP50Ms: health.p50, healthP99Ms: health.p99, verifyP50Ms: verify.p50, verifyP99Ms: verify.p99,
    webhookP50Ms: webhook.p50, webhookP99Ms: webhook.p99,
    non2xx: { health: health.non2xx, verify: verify.non2xx, webhook: webhook.non2xx }, serverPeakRssMb: rss,
  }));
} finally {
  await app.stop();
}
