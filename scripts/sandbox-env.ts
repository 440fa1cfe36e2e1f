// The sandbox's generated secrets for `npm start` (DECISIONS "Configuration" and "Recurring work"): any secret the
// environment lacks is generated once into .data/sandbox-secrets.json and kept there for the next start. A variable
// set in the environment always wins over the file: only missing ones are taken from it, and the start log names
// each one taken. Production never calls this.
import fs from 'node:fs';
import path from 'node:path';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { DEMO_CLINIC_IDS, sandboxEhrVendors } from '../lib/sandbox-ehr/sandbox-ehr-urls';

const GENERATORS: Record<string, () => string> = {
  AUTH_SECRET: () => randomBytes(32).toString('base64url'),
  STEP_UP_SECRET: () => randomBytes(32).toString('base64url'),
  SEAL_KEY: () => randomBytes(32).toString('base64'),
  CRON_SECRET: () => randomBytes(32).toString('base64url'),
  WEBHOOK_SECRET_PAYMENT: () => randomBytes(24).toString('hex'),
  WEBHOOK_SECRET_FAX: () => randomBytes(24).toString('hex'),
  WEBHOOK_SECRET_EMR: () => randomBytes(24).toString('hex'),
  WEBHOOK_SECRET_TRANSFER: () => randomBytes(24).toString('hex'),
  WEBHOOK_SECRET_BANKING: () => randomBytes(24).toString('hex'),
  WEBHOOK_SECRET_ERA: () => randomBytes(24).toString('hex'),
};
const SMART_NAMES = ['SMART_CLIENT_ID', 'SMART_PRIVATE_KEY', 'SMART_KEY_ID'];

export type SandboxEnv = {
  /** Values for the variables the environment does not set; the caller adds them to the environment. */
  values: Record<string, string>;
  /** The variables generated now (and saved to the file). */
  generated: string[];
  /** The variables taken from the file (saved by an earlier start), which the environment does not set. */
  fromFile: string[];
};

type Env = Readonly<Record<string, string | undefined>>;

const isSet = (env: Env, name: string) => (env[name] ?? '') !== '';

/** What the sandbox adds to `env`; never a value for a variable `env` sets. Writes the file when it generates. */
export function sandboxEnv(env: Env, secretsFile: string): SandboxEnv {
  const saved: Record<string, string> = fs.existsSync(secretsFile)
    ? JSON.parse(fs.readFileSync(secretsFile, 'utf8'))
    : {};
  const generated: string[] = [];
  for (const [name, make] of Object.entries(GENERATORS)) {
    if (isSet(env, name) || saved[name]) continue;
    saved[name] = make();
    generated.push(name);
  }
  // The SMART Backend Services key the demo's smart-backend pull signs with (the sandbox EHR verifies it against
  // our own /.well-known/jwks.json): a group, generated and taken only when the environment sets none of the three.
  const smartFromEnv = SMART_NAMES.some((name) => isSet(env, name));
  if (!smartFromEnv && SMART_NAMES.some((name) => !saved[name])) {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    saved.SMART_CLIENT_ID = 'sandbox-backend';
    saved.SMART_PRIVATE_KEY = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    saved.SMART_KEY_ID = `sandbox-${randomBytes(6).toString('hex')}`;
    generated.push(...SMART_NAMES);
  }
  if (generated.length) {
    fs.mkdirSync(path.dirname(secretsFile), { recursive: true });
    fs.writeFileSync(secretsFile, JSON.stringify(saved, null, 2), { mode: 0o600 });
  }
  const values: Record<string, string> = {};
  const fromFile: string[] = [];
  for (const [name, value] of Object.entries(saved)) {
    if (isSet(env, name) || (SMART_NAMES.includes(name) && smartFromEnv)) continue;
    values[name] = value;
    if (!generated.includes(name)) fromFile.push(name);
  }
  const port = env.PORT || '3000';
  const appUrl = env.APP_URL || `http://localhost:${port}`;
  // Passkeys need a relying party; in the sandbox it is this origin.
  if (!isSet(env, 'WEBAUTHN_RP_ID')) {
    values.WEBAUTHN_RP_ID = new URL(appUrl).hostname;
    if (!isSet(env, 'WEBAUTHN_RP_NAME')) values.WEBAUTHN_RP_NAME = 'Clinic Revenue Platform (sandbox)';
    if (!isSet(env, 'WEBAUTHN_ORIGIN')) values.WEBAUTHN_ORIGIN = new URL(appUrl).origin;
  }
  // The demo's EHR is the sandbox EHR this app serves (lib/sandbox-ehr), unless the operator names one.
  if (!isSet(env, 'EMR_VENDORS'))
    values.EMR_VENDORS = JSON.stringify(sandboxEhrVendors(appUrl.replace(/\/+$/, ''), DEMO_CLINIC_IDS));
  // The demo's 90 days of history (lib/demo/seed-demo-history.ts), seeded once on the first start.
  if (!isSet(env, 'DEMO_HISTORY')) values.DEMO_HISTORY = 'on';
  return { values, generated, fromFile };
}
