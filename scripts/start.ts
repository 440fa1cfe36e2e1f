// npm start: the one command that serves the app. SVC_ENV unset means sandbox on the embedded database only; with
// DATABASE_URL set it must be given (parseConfig refuses, and so do we). In sandbox it creates any missing
// secret under .data/ and says so; production never generates one. Then it migrates the database (wasm schema
// engine), builds when the build is missing or older than the sources, and runs `next start` (which logs the
// mode and, in sandbox, seeds the demo tenant once).
import fs from 'node:fs';
import path from 'node:path';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { parseConfig } from '../lib/config';
import { applyMigrations } from './schema-engine.mjs';
import { migrationTarget } from './migrate.mjs';
import { nextStartCommand } from './next-server';
import { DEMO_CLINIC_IDS, sandboxEhrVendors } from '../lib/sandbox-ehr/sandbox-ehr-urls';

const root = path.resolve(import.meta.dirname, '..');
const secretsFile = path.join(root, '.data', 'sandbox-secrets.json');

function sandboxDefaults(env: NodeJS.ProcessEnv): Record<string, string> {
  const saved: Record<string, string> = fs.existsSync(secretsFile)
    ? JSON.parse(fs.readFileSync(secretsFile, 'utf8'))
    : {};
  const generators: Record<string, () => string> = {
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
  const generated: string[] = [];
  for (const [name, make] of Object.entries(generators)) {
    if (env[name] || saved[name]) continue;
    saved[name] = make();
    generated.push(name);
  }
  // The SMART Backend Services key the demo's smart-backend pull signs with (the sandbox EHR verifies it against
  // our own /.well-known/jwks.json): generated as a group, only when none of the three is configured.
  const smartNames = ['SMART_CLIENT_ID', 'SMART_PRIVATE_KEY', 'SMART_KEY_ID'];
  if (smartNames.every((name) => !env[name] && !saved[name])) {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    saved.SMART_CLIENT_ID = 'sandbox-backend';
    saved.SMART_PRIVATE_KEY = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    saved.SMART_KEY_ID = `sandbox-${randomBytes(6).toString('hex')}`;
    generated.push(...smartNames);
  }
  if (generated.length) {
    fs.mkdirSync(path.dirname(secretsFile), { recursive: true });
    fs.writeFileSync(secretsFile, JSON.stringify(saved, null, 2), { mode: 0o600 });
    console.log(`sandbox: generated ${generated.join(', ')} into ${path.relative(root, secretsFile)}`);
  }
  const port = env.PORT ?? '3000';
  const appUrl = env.APP_URL ?? `http://localhost:${port}`;
  // Passkeys need a relying party; in the sandbox it is this origin.
  const relyingParty: Record<string, string> = env.WEBAUTHN_RP_ID
    ? {}
    : {
        WEBAUTHN_RP_ID: new URL(appUrl).hostname,
        WEBAUTHN_RP_NAME: 'Clinic Revenue Platform (sandbox)',
        WEBAUTHN_ORIGIN: new URL(appUrl).origin,
      };
  // The demo's EHR is the sandbox EHR this app serves (lib/sandbox-ehr), unless the operator names one.
  const emrVendors: Record<string, string> = env.EMR_VENDORS
    ? {}
    : { EMR_VENDORS: JSON.stringify(sandboxEhrVendors(appUrl.replace(/\/+$/, ''), DEMO_CLINIC_IDS)) };
  // A SMART key the operator set later wins over the generated one.
  const fromFile = Object.fromEntries(
    Object.entries(saved).filter(([name]) => !(smartNames.includes(name) && smartNames.some((n) => env[n]))),
  );
  return { ...fromFile, ...relyingParty, ...emrVendors };
}

function newestMtime(entry: string): number {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(full)
    .filter((n) => n !== 'generated' && !n.endsWith('.test.ts'))
    .reduce((max, n) => Math.max(max, newestMtime(path.join(entry, n))), stat.mtimeMs);
}

function buildIsStale(distDir: string): boolean {
  const buildId = path.join(root, distDir, 'BUILD_ID');
  if (!fs.existsSync(buildId)) return true;
  const built = fs.statSync(buildId).mtimeMs;
  return [
    'app',
    'lib',
    'components',
    'middleware.ts',
    'instrumentation.ts',
    'next.config.mjs',
    'package-lock.json',
  ].some((entry) => newestMtime(entry) > built);
}

async function main() {
  const mode = parseConfig(process.env).mode;
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_ENV: mode, NEXT_TELEMETRY_DISABLED: '1' };
  if (mode === 'sandbox') Object.assign(env, sandboxDefaults(env));
  const config = parseConfig(env); // fails here, before anything starts, on a malformed value
  env.NEXTAUTH_URL ??= config.appUrl;

  const target = migrationTarget(env);
  const { appliedMigrationNames } = await applyMigrations(target);
  console.log(
    appliedMigrationNames.length ? `database: applied ${appliedMigrationNames.join(', ')}` : 'database: up to date',
  );

  const distDir = env.NEXT_DIST_DIR || '.next';
  if (buildIsStale(distDir)) {
    console.log('building the app (first start or sources changed)…');
    const build = spawnSync(path.join(root, 'node_modules/.bin/next'), ['build'], { cwd: root, env, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  console.log(
    `serving ${config.appUrl} in ${mode} mode (listening on ${config.host}:${config.port}) on node ${process.version}`,
  );
  // The sandbox listens on loopback unless HOST says otherwise: its demo users have a published password.
  const start = nextStartCommand(root, ['-p', String(config.port), '-H', config.host]);
  const server = spawn(start.command, start.args, { cwd: root, env: { ...env, ...start.env }, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code) => process.exit(code ?? 0));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
