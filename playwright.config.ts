// Browser tests in Debian's Chromium (no browser download). The app runs in sandbox mode on the embedded
// database (in memory), seeded with the demo tenant, on localhost so WebAuthn has a secure-context rpID.
// Fakes of the outside world (EMR) start in global-setup on fixed loopback ports named here.
// Two apps, each on a database of its own, and a worker each: the billing office's specs on one, everything else
// on the other, each project's files one after another as before. One worker left the two cores idle a quarter of
// the run (the browser and the app waiting on each other); the halves take about the same time.
import { defineConfig } from 'playwright/test';
import { E2E_PORTS, e2eEnv, e2eUrl } from './e2e/e2e-env';
import { nextStartCommand } from './scripts/next-server';

const BILLING_OFFICE = [
  'admin.spec.ts',
  'claims-second-pass.spec.ts',
  'claims-visit-and-rejection.spec.ts',
  'claims.spec.ts',
  'emr-demo.spec.ts',
  'payouts.spec.ts',
  'remittances-unmatched.spec.ts',
  'remittances.spec.ts',
  'security.spec.ts',
  'webhooks.spec.ts',
  'write-off.spec.ts',
];
const billingOffice = BILLING_OFFICE.map((file) => `**/${file}`);
const [frontDeskPort, billingPort] = E2E_PORTS;

export default defineConfig({
  testDir: 'e2e',
  workers: 2,
  projects: [
    // Every spec not named above, so a new one runs here until it is moved.
    { name: 'front desk', testIgnore: billingOffice, workers: 1, use: { baseURL: e2eUrl(frontDeskPort) } },
    { name: 'billing office', testMatch: billingOffice, workers: 1, use: { baseURL: e2eUrl(billingPort) } },
  ],
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  timeout: 60_000,
  globalSetup: './e2e/global-setup.ts',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'retain-on-failure',
  },
  webServer: E2E_PORTS.map((port) => {
    const server = nextStartCommand(import.meta.dirname, ['-p', String(port), '-H', '127.0.0.1']);
    return {
      command: [server.command, ...server.args].map((part) => JSON.stringify(part)).join(' '),
      url: `http://127.0.0.1:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 90_000,
      env: { ...server.env, ...e2eEnv(port) },
    };
  }),
});
