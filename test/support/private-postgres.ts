// A private PostgreSQL cluster on its own port, for tests that must stop and start the server (the shared one
// on 5432 serves every other test file in parallel). Needs the Debian PostgreSQL binaries; runs them as the
// postgres user when the tests run as root.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { freePort } from './app';

function binary(name: string): string {
  const root = '/usr/lib/postgresql';
  const version = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  if (!version) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql');
  return path.join(root, version, 'bin', name);
}

function run(args: string[]) {
  const asPostgres = process.getuid?.() === 0;
  const [cmd, ...rest] = args;
  if (asPostgres)
    execFileSync(
      'su',
      ['postgres', '-s', '/bin/sh', '-c', [cmd!, ...rest].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ')],
      { stdio: 'pipe' },
    );
  else execFileSync(cmd!, rest, { stdio: 'pipe' });
}

export type PrivatePostgres = { url: string; stop(): void; start(): void; destroy(): void };

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-private-'));
  fs.chmodSync(dir, 0o777);
  const data = path.join(dir, 'data');
  const port = await freePort();
  run([binary('initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const start = () =>
    run([
      binary('pg_ctl'),
      '-D',
      data,
      '-l',
      path.join(dir, 'log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  const stop = () => run([binary('pg_ctl'), '-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy() {
      try {
        stop();
      } catch {
        /* already stopped */
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
