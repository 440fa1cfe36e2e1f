// A real PgBouncer (Debian's package) in transaction mode on a loopback port, in front of the local PostgreSQL,
// for tests of the fleet deployment (docs/operations.md). Started per test file from a generated ini and stopped
// after it. It runs as the postgres user: PgBouncer refuses to run as root, and `-u` drops to that user.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './app';
import { ADMIN_URL } from './postgres';

export type PgBouncer = {
  /** `url` with the host and port swapped for PgBouncer's: the address an app behind it gets as DATABASE_URL. */
  pooled(url: string): string;
  /** Server connections PgBouncer keeps per database and user: fewer than the clients, so they are shared. */
  serverPoolSize: number;
  logs(): string;
  stop(): Promise<void>;
};

export async function startPgBouncer(options: { serverPoolSize?: number } = {}): Promise<PgBouncer> {
  const server = new URL(ADMIN_URL);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgbouncer-'));
  fs.chmodSync(dir, 0o777);
  const port = await freePort();
  const serverPoolSize = options.serverPoolSize ?? 20;
  const user = decodeURIComponent(server.username) || 'postgres';
  // auth_type trust still needs the user listed. Every database is forwarded to the local server, so each test
  // database created later is reachable without reloading.
  fs.writeFileSync(path.join(dir, 'userlist.txt'), `"${user}" ""\n`);
  fs.writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      // Tests read SHOW CLIENTS on the admin console (database "pgbouncer").
      `admin_users = ${user}`,
      'pool_mode = transaction',
      `default_pool_size = ${serverPoolSize}`,
      'max_client_conn = 1000',
      // A server connection goes back to the pool as soon as a transaction ends; nothing is reset between clients.
      'server_reset_query =',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      'log_connections = 0',
      'log_disconnections = 0',
      '',
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(
    'pgbouncer',
    [...(asRoot ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`PgBouncer did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    serverPoolSize,
    pooled(url: string) {
      const pooled = new URL(url);
      pooled.hostname = '127.0.0.1';
      pooled.port = String(port);
      return pooled.toString();
    },
    logs: () => output + readIfPresent(path.join(dir, 'pgbouncer.log')),
    async stop() {
      child.kill('SIGINT');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function readIfPresent(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
