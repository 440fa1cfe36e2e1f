// The environment of the apps under browser test: sandbox, in-memory PGlite, fixed test secrets, fakes on
// fixed loopback ports (started by global-setup.ts). Two apps, each with a database of its own, one for each of
// playwright.config.ts's two workers, on E2E_PORT and the port after it.
import { generateKeyPairSync } from 'node:crypto';
// E2E_PORT / E2E_FAKE_EMR_PORT in the environment move them, so two browser runs can share a machine.
const E2E_PORT = Number(process.env.E2E_PORT || 3100);
export const E2E_PORTS = [E2E_PORT, E2E_PORT + 1] as const;
export const E2E_FAKE_EMR_PORT = Number(process.env.E2E_FAKE_EMR_PORT || 3190);
/** The client id the fake EMR (global-setup.ts) has registered for the browser OAuth flow. */
export const E2E_EMR_CLIENT_ID = 'e2e-northside-app';
const FAKE_EMR = `http://127.0.0.1:${E2E_FAKE_EMR_PORT}`;

/**
 * The SMART Backend Services key of the app under test: the sandbox EHR verifies our assertions against our own
 * JWKS, so any key works; one per run (only the server process reads it).
 */
const SMART_PRIVATE_KEY = generateKeyPairSync('ec', { namedCurve: 'P-384' })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

/** The address the browser opens the app on `port` at: localhost, so WebAuthn has a secure-context rpID. */
export const e2eUrl = (port: number) => `http://localhost:${port}`;

/** The environment of the app on `port` (its own URLs: the session, WebAuthn and its sandbox EHR name them). */
export function e2eEnv(port: number): Record<string, string> {
  const url = e2eUrl(port);
  return {
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    NEXT_DIST_DIR: process.env.NEXT_DIST_DIR || '.next',
    SVC_ENV: 'sandbox',
    PGLITE_DATA_DIR: 'memory://',
    APP_URL: url,
    NEXTAUTH_URL: url,
    LOG_LEVEL: 'warn',
    AUTH_SECRET: 'e2e-auth-secret-0123456789abcdefghijklmnop',
    STEP_UP_SECRET: 'e2e-step-up-secret-0123456789abcdefghijkl',
    SEAL_KEY: Buffer.alloc(32, 7).toString('base64'),
    CRON_SECRET: 'e2e-cron-secret',
    WEBAUTHN_RP_ID: 'localhost',
    WEBAUTHN_RP_NAME: 'Clinic Revenue Platform (e2e)',
    WEBAUTHN_ORIGIN: url,
    EMR_VENDORS: JSON.stringify({
      'browser-oauth': {
        authorizeUrl: `${FAKE_EMR}/oauth/authorize`,
        tokenUrl: `${FAKE_EMR}/oauth/token`,
        fhirBaseUrl: `${FAKE_EMR}/fhir`,
      },
      // The app's own sandbox EHR (lib/sandbox-ehr), for e2e/emr-demo.spec.ts.
      'generic-fhir': {
        authorizeUrl: `${url}/sandbox-ehr/authorize`,
        tokenUrl: `${url}/api/sandbox-ehr/token`,
        fhirBaseUrl: `${url}/api/sandbox-ehr/fhir`,
      },
      // Its Bulk Data export of Northside's Group, for the backend pull run as a job (e2e/emr-demo.spec.ts).
      'smart-backend': {
        tokenUrl: `${url}/api/sandbox-ehr/token`,
        fhirBaseUrl: `${url}/api/sandbox-ehr/fhir`,
        groups: { clinic_north: 'grp-clinic-north' },
      },
    }),
    SMART_CLIENT_ID: 'sandbox-backend',
    SMART_PRIVATE_KEY,
    SMART_KEY_ID: 'e2e-key-1',
  };
}
