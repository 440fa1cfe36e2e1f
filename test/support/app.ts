// Starts the built app (`next start`) as a child process on a free loopback port, with the environment a test
// chooses, against a fresh PostgreSQL database (or in-memory PGlite). Tests talk to it over real HTTP; fakes
// of the outside world run in the test process and are handed to the app through env URLs.
// Build first: `npx next build` (NEXT_DIST_DIR selects the build folder, default .next).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openDb, type Db } from '@/lib/db';
import { createTestDatabase, type TestDatabase } from './postgres';
import { nextStartCommand } from '@/scripts/next-server';

/** Secrets every test app gets unless a test removes them; tests sign webhooks with these. */
export const TEST_SECRETS = {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  STEP_UP_SECRET: randomBytes(32).toString('base64url'),
  SEAL_KEY: randomBytes(32).toString('base64'),
  CRON_SECRET: randomBytes(32).toString('base64url'),
  WEBHOOK_SECRET_PAYMENT: 'test-payment-secret',
  WEBHOOK_SECRET_FAX: 'test-fax-secret',
  WEBHOOK_SECRET_EMR: 'test-emr-secret',
  WEBHOOK_SECRET_TRANSFER: 'test-transfer-secret',
  WEBHOOK_SECRET_BANKING: 'test-banking-secret',
  WEBHOOK_SECRET_ERA: 'test-era-secret',
} as const;

export type TestApp = {
  url: string;
  /** The server process, for resource measurements (benchmarks). */
  pid: number;
  /** The test process's own client on the app's PostgreSQL database (absent for PGlite). */
  db: Db;
  database?: TestDatabase;
  env: Record<string, string>;
  logs(): string;
  stop(): Promise<void>;
};

export type StartOptions = {
  /** Added to (or, with undefined, removed from) the default environment. */
  env?: Record<string, string | undefined>;
  database?: 'postgres' | 'pglite';
  /** Reuse an existing database (e.g. to restart the app on the same data). */
  reuse?: TestDatabase;
  /** Listen on this port (from freePort()), for an env that must name the app's own URL; default a free one. */
  port?: number;
};

// The kernel gives every listen(0) (the fakes, the webhook receivers) and every outgoing connection a port from its
// ephemeral range, so a port chosen there and released before the app listens can be handed to one of those in
// between: for a fleet start that waits minutes for its build, a real risk. freePort() chooses below that range,
// where only another freePort() can land (and startApp then chooses again).
const EPHEMERAL_FLOOR = (() => {
  try {
    return Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
})();
const LOWEST_PORT = 10_000;
const PORTS_BELOW = Math.max(EPHEMERAL_FLOOR, LOWEST_PORT + 1_000);

const isFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A loopback port nothing listens on, outside the kernel's ephemeral range (see above). */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = LOWEST_PORT + Math.floor(Math.random() * (PORTS_BELOW - LOWEST_PORT));
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port between ${LOWEST_PORT} and ${PORTS_BELOW}`);
}

export async function startApp(options: StartOptions = {}): Promise<TestApp> {
  const distDir = process.env.NEXT_DIST_DIR || '.next';
  if (!fs.existsSync(path.resolve(distDir, 'BUILD_ID'))) {
    throw new Error(`No build in ${distDir}: run \`NEXT_DIST_DIR=${distDir} npx next build\` before the HTTP tests`);
  }
  const usePglite = options.database === 'pglite';
  const database = usePglite ? undefined : (options.reuse ?? (await createTestDatabase()));
  // The port is free when chosen, not held: another server can take it before the app listens (in CI, most likely
  // a fake FHIR store, which answered the health probe 200). The app then cannot listen: a port chosen here is
  // chosen again; a port the test chose fails loudly. launch() probes only once the app itself listens.
  const databaseEnv: Record<string, string> = usePglite
    ? { PGLITE_DATA_DIR: 'memory://' }
    : { DATABASE_URL: database!.url };
  let started: Started;
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    started = await launch(port, distDir, databaseEnv, options.env);
    if (started !== PORT_TAKEN) break;
    if (options.port !== undefined || attempt === 3) throw new Error(`port ${port} was taken before the app listened`);
  }
  const { url, env, child, exited, logs } = started;
  const db = database ? await openDb({ kind: 'postgres', url: database.url }) : (undefined as unknown as Db);
  return {
    url,
    db,
    database,
    env,
    pid: child.pid!,
    logs,
    async stop() {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      if (database) {
        await db.$disconnect();
        if (!options.reuse) await database.drop();
      }
    },
  };
}

const PORT_TAKEN = Symbol('port taken');

type Started =
  | typeof PORT_TAKEN
  | { url: string; env: Record<string, string>; child: ChildProcess; exited: Promise<void>; logs: () => string };

/** Starts `next start` on `port` and waits until it answers health, or PORT_TAKEN when it could not listen. */
async function launch(
  port: number,
  distDir: string,
  databaseEnv: Record<string, string>,
  overrides: StartOptions['env'],
): Promise<Started> {
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    // Node keeps the server's compiled modules on disk between the suite's hundred-odd app starts (~0.4 s each).
    NODE_COMPILE_CACHE: path.resolve('node_modules/.cache/node-compile-cache'),
    NEXT_DIST_DIR: distDir,
    SVC_ENV: 'sandbox',
    APP_URL: url,
    NEXTAUTH_URL: url,
    LOG_LEVEL: 'warn',
    WEBAUTHN_RP_ID: 'localhost',
    WEBAUTHN_RP_NAME: 'Clinic Revenue Platform (test)',
    WEBAUTHN_ORIGIN: `http://localhost:${port}`,
    ...TEST_SECRETS,
    ...databaseEnv,
  };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const start = nextStartCommand(path.resolve('.'), ['-p', String(port), '-H', '127.0.0.1']);
  const child: ChildProcess = spawn(start.command, start.args, {
    cwd: path.resolve('.'),
    env: { ...start.env, ...env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      if (output.includes('EADDRINUSE')) return PORT_TAKEN;
      throw new Error(`app exited during start:\n${output}`);
    }
    // Next prints Ready once it listens; until then, whatever answers on this port is not this app.
    if (output.includes('Ready in')) {
      try {
        const res = await fetch(`${url}/api/health`);
        // Health answers once the server is up; the sandbox seed runs in instrumentation before that.
        if (res.status === 200) break;
      } catch {
        /* not answering yet */
      }
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`app did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return { url, env, child, exited, logs: () => output };
}
