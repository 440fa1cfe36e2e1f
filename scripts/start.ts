// npm start: the one command that serves the app. SVC_ENV unset means sandbox on the embedded database only; with
// DATABASE_URL set it must be given (parseConfig refuses, and so do we). In sandbox it creates any missing
// secret under .data/ and says so (a variable set in the environment always wins over the saved file); production
// never generates one. Then it migrates the database (wasm schema engine), builds when the sources' content differs
// from the build's (one build at a time per folder: scripts/build-once.ts), and runs `next start` (which logs the
// mode and, in sandbox, seeds the demo tenant once, with its 90 days of history: DEMO_HISTORY=on from sandboxEnv).
// SIGTERM and SIGINT are passed to the server, which stops gracefully (lib/background/exit-gracefully.ts: the jobs and
// requests in flight finish first; Next's own handler, which exits once HTTP has closed, is switched off for it), and
// this process exits as the server did.
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { parseConfig } from '../lib/config';
import { applyMigrations } from './schema-engine.mjs';
import { migrationTarget } from './migrate.mjs';
import { nextStartCommand } from './next-server';
import { sandboxEnv } from './sandbox-env';
import { buildOnce } from './build-once';

const root = path.resolve(import.meta.dirname, '..');
const secretsFile = path.join(root, '.data', 'sandbox-secrets.json');

/** `next build` as a child process; resolves with its exit status. */
function nextBuild(env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const build = spawn(path.join(root, 'node_modules/.bin/next'), ['build'], { cwd: root, env, stdio: 'inherit' });
    build.on('exit', (code) => resolve(code ?? 1));
    build.on('error', () => resolve(1));
  });
}

async function main() {
  const mode = parseConfig(process.env).mode;
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_ENV: mode, NEXT_TELEMETRY_DISABLED: '1' };
  if (mode === 'sandbox') {
    // The environment always wins: only variables it does not set come from the file (and are named here).
    const sandbox = sandboxEnv(env, secretsFile);
    Object.assign(env, sandbox.values);
    const file = path.relative(root, secretsFile);
    if (sandbox.generated.length) console.log(`sandbox: generated ${sandbox.generated.join(', ')} into ${file}`);
    if (sandbox.fromFile.length) console.log(`sandbox: took ${sandbox.fromFile.join(', ')} from ${file}`);
  }
  const config = parseConfig(env); // fails here, before anything starts, on a malformed value
  env.NEXTAUTH_URL ??= config.appUrl;

  const target = migrationTarget(env);
  const { appliedMigrationNames } = await applyMigrations(target);
  console.log(
    appliedMigrationNames.length ? `database: applied ${appliedMigrationNames.join(', ')}` : 'database: up to date',
  );

  const distDir = env.NEXT_DIST_DIR || '.next';
  // Built only when the sources' content changed, by one start at a time (the others wait and re-check).
  const built = await buildOnce({ root, distDir, build: () => nextBuild(env), log: (line) => console.log(line) });
  if (built.outcome === 'failed') process.exit(built.status);
  console.log(
    `serving ${config.appUrl} in ${mode} mode (listening on ${config.host}:${config.port}) on node ${process.version}`,
  );
  // The sandbox listens on loopback unless HOST says otherwise: its demo users have a published password.
  const start = nextStartCommand(root, ['-p', String(config.port), '-H', config.host]);
  const server = spawn(start.command, start.args, {
    cwd: root,
    env: { ...env, ...start.env, NEXT_MANUAL_SIG_HANDLE: '1' },
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  // A server ended by a signal it did not handle exits as Node would: 128 + the signal's number.
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 0)));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
