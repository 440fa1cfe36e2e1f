// One build for a fleet (issue 29 item 4), end to end: two `npm start`s launched together from one clean clone (this
// branch's committed tree, its node_modules hard-linked, no build folder) on one PostgreSQL both serve, after exactly
// one `next build` between them: one start builds under the lock, the other waits for it and finds it fresh.
// Slow (one real production build), so it runs once per suite; scripts/build-once.test.ts covers the cases.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, TEST_SECRETS } from '../test/support/app';
import { createEmptyDatabase, type TestDatabase } from '../test/support/postgres';
import { openDb } from '../lib/db';

const root = path.resolve(import.meta.dirname, '..');
let clone: string | undefined;
let database: TestDatabase | undefined;
const starts: ChildProcess[] = [];

afterAll(async () => {
  // Each start runs in its own process group (start.ts and the `next start` it spawned).
  for (const child of starts) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  await database?.drop();
  if (clone) fs.rmSync(clone, { recursive: true, force: true });
});

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/health`)).status === 200;
  } catch {
    return false;
  }
}

describe('two npm starts from one clean clone', () => {
  it('both serve after one build between them', async () => {
    clone = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-clone-'));
    execFileSync('git', ['clone', '--quiet', root, clone]);
    execFileSync('cp', ['-al', path.join(root, 'node_modules'), path.join(clone, 'node_modules')]);
    execFileSync('cp', ['-r', path.join(root, 'lib/db/generated'), path.join(clone, 'lib/db/generated')]);
    database = await createEmptyDatabase();

    const outputs = ['', ''];
    const urls: string[] = [];
    for (const i of [0, 1]) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      urls.push(url);
      const child = spawn('npm', ['start'], {
        cwd: clone,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`,
          HOME: process.env.HOME ?? '/tmp',
          SVC_ENV: 'sandbox',
          DATABASE_URL: database.url,
          PORT: String(port),
          HOST: '127.0.0.1',
          APP_URL: url,
          LOG_LEVEL: 'warn',
          NODE_ENV: 'production',
          ...TEST_SECRETS,
        },
      });
      child.stdout!.on('data', (d) => (outputs[i] += d));
      child.stderr!.on('data', (d) => (outputs[i] += d));
      starts.push(child);
    }
    const deadline = Date.now() + 540_000;
    while (!(await healthy(urls[0]!)) || !(await healthy(urls[1]!))) {
      const exited = starts.find((child) => child.exitCode !== null);
      if (exited || Date.now() > deadline) throw new Error(`a start failed or timed out:\n${outputs.join('\n----\n')}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const all = outputs.join('\n');
    expect(all.match(/building the app \(first start\)/g), all).toHaveLength(1);
    expect(all.match(/Creating an optimized production build/g), all).toHaveLength(1);
    expect(all).not.toContain('Another next build process is already running');
    expect(all.match(/waiting for the build another start is running/g), all).toHaveLength(1);
    expect(fs.existsSync(path.join(clone, '.next', 'svc-source-hash'))).toBe(true);
    // The demo's history (DEMO_HISTORY=on from the sandbox start) was seeded by exactly one of the two.
    const db = await openDb({ kind: 'postgres', url: database.url });
    try {
      expect(await db.patient.count({ where: { id: { startsWith: 'pat_n_1' } } })).toBe(20);
      const claims = await db.claim.count();
      expect(claims).toBeGreaterThan(0);
      expect(await db.claimTransmission.count({ where: { kind: '837P' } })).toBe(claims);
      expect(await db.settlementInstruction.count()).toBe(2);
    } finally {
      await db.$disconnect();
    }
  }, 600_000);
});
