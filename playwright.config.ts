// Browser tests in Debian's Chromium (no browser download). The app runs in sandbox mode on the embedded
// database (in memory), seeded with the demo tenant, on localhost so WebAuthn has a secure-context rpID.
// Fakes of the outside world (EMR) start in global-setup on fixed loopback ports named here.
import { defineConfig } from 'playwright/test';
import { E2E_ENV, E2E_PORT } from './e2e/e2e-env';
import { nextStartCommand } from './scripts/next-server';

const server = nextStartCommand(import.meta.dirname, ['-p', String(E2E_PORT), '-H', '127.0.0.1']);

export default defineConfig({
  testDir: 'e2e',
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  timeout: 60_000,
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
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
  webServer: {
    command: [server.command, ...server.args].map((part) => JSON.stringify(part)).join(' '),
    url: `http://127.0.0.1:${E2E_PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 90_000,
    env: { ...server.env, ...E2E_ENV },
  },
});
