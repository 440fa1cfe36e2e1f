// `npm start` and the admin command on a deployment that did not say which mode it is: with DATABASE_URL set
// and SVC_ENV unset both refuse at once, say to set SVC_ENV, and touch no database (the URL points at a port
// nothing listens on, so any connection attempt would fail differently).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

function run(script: string, args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const base: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', script, ...args],
      {
        cwd: root,
        env: { ...base, ...env } as NodeJS.ProcessEnv,
        timeout: 60_000,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, output: `${stdout}${stderr}` }),
    );
    child.stdin?.end('a-long-enough-password\n');
  });
}

const UNSAID = { DATABASE_URL: 'postgresql://127.0.0.1:1/nothing', NODE_ENV: 'production' };

describe('a deployment on a database server must set SVC_ENV', () => {
  it('npm start refuses before migrating or building, and says to set SVC_ENV', async () => {
    const result = await run('scripts/start.ts', [], UNSAID);
    expect(result.code).toBe(1);
    expect(result.output).toContain(
      'SVC_ENV must be set (sandbox or production) when DATABASE_URL names a database server',
    );
    expect(result.output).not.toMatch(/database: |ECONNREFUSED|building the app/);
  });

  it('the admin command refuses before reading the password or touching the database', async () => {
    const result = await run(
      'scripts/admin.ts',
      ['create-user', '--org', 'O', '--clinic', 'C', '--email', 'a@b.test', '--scopes', 'claims:read'],
      UNSAID,
    );
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('SVC_ENV must be set');
    expect(result.output).not.toMatch(/ECONNREFUSED|userId/);
  });
});
