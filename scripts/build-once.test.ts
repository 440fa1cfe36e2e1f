// One build, only when the sources changed (issue 28 item 10, issue 29 item 4): staleness by content (touching a
// folder, re-creating a file with the same bytes, adding a test or generated code does not rebuild; changing a
// source does), and concurrent starts from one folder run one build, the others waiting and then finding it fresh.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildOnce, SOURCE_HASH_FILE, sourceHash } from './build-once';

describe('build staleness by content and one build per folder', () => {
  let root: string;
  let builds: number;
  let logs: string[];
  const write = (relative: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  };
  /** A stand-in for `next build`: takes a while, counts, and writes a BUILD_ID as next does. */
  const build = async () => {
    builds += 1;
    await new Promise((resolve) => setTimeout(resolve, 300));
    fs.mkdirSync(path.join(root, '.next'), { recursive: true });
    fs.writeFileSync(path.join(root, '.next', 'BUILD_ID'), `build-${builds}`);
    return 0;
  };
  const start = () => buildOnce({ root, distDir: '.next', build, log: (line) => logs.push(line), pollMs: 50 });

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-once-'));
    builds = 0;
    logs = [];
    write('app/page.tsx', 'export default function Page() { return null; }\n');
    write('lib/money.ts', 'export const cents = 1;\n');
    write('middleware.ts', 'export {};\n');
    write('package-lock.json', '{}\n');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('builds on first start and stores the hash of its sources beside the build; the next start does not build', async () => {
    expect(await start()).toEqual({ outcome: 'built', waited: false });
    expect(fs.readFileSync(path.join(root, '.next', SOURCE_HASH_FILE), 'utf8').trim()).toBe(sourceHash(root));
    expect(await start()).toEqual({ outcome: 'fresh', waited: false });
    expect(builds).toBe(1);
    expect(logs).toEqual(['building the app (first start)…']);
  });

  it('touching a folder, re-creating a file with the same content, tests and generated code do not rebuild', async () => {
    await start();
    // A file created and removed: the folder's modification time moves on.
    write('lib/scratch.ts', 'x');
    fs.rmSync(path.join(root, 'lib/scratch.ts'));
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, 'lib'), later, later);
    // The same bytes written again, with a newer time.
    fs.rmSync(path.join(root, 'lib/money.ts'));
    write('lib/money.ts', 'export const cents = 1;\n');
    fs.utimesSync(path.join(root, 'lib/money.ts'), later, later);
    write('lib/money.test.ts', 'it("is a test", () => {});\n');
    write('lib/db/generated/client.ts', 'export const generated = 2;\n');
    expect(await start()).toEqual({ outcome: 'fresh', waited: false });
    expect(builds).toBe(1);
  });

  it('a changed, added or removed source rebuilds', async () => {
    await start();
    write('lib/money.ts', 'export const cents = 2;\n');
    expect((await start()).outcome).toBe('built');
    write('components/button.tsx', 'export {};\n');
    expect((await start()).outcome).toBe('built');
    fs.rmSync(path.join(root, 'components/button.tsx'));
    expect((await start()).outcome).toBe('built');
    write('package-lock.json', '{"lockfileVersion":3}\n');
    expect((await start()).outcome).toBe('built');
    expect(builds).toBe(5);
    expect(logs.at(-1)).toBe('building the app (sources changed)…');
  });

  it('a build that fails stores no hash, so the next start builds again', async () => {
    const failed = await buildOnce({ root, distDir: '.next', build: async () => 2, log: () => {} });
    expect(failed).toEqual({ outcome: 'failed', status: 2 });
    expect(fs.existsSync(path.join(root, '.next', SOURCE_HASH_FILE))).toBe(false);
    expect(fs.existsSync(path.join(root, '.next.build.lock'))).toBe(false);
    expect((await start()).outcome).toBe('built');
  });

  it('concurrent starts from one folder run one build: the others wait for it and find it fresh', async () => {
    const outcomes = await Promise.all([start(), start(), start()]);
    expect(builds).toBe(1);
    expect(outcomes.filter((o) => o.outcome === 'built')).toHaveLength(1);
    expect(outcomes.filter((o) => o.outcome === 'fresh' && o.waited)).toHaveLength(2);
    expect(logs.filter((l) => l.startsWith('waiting for the build another start is running'))).toHaveLength(2);
    expect(fs.existsSync(path.join(root, '.next.build.lock'))).toBe(false);
  });

  it('three start processes from one folder run one build between them', async () => {
    // Each process runs buildOnce with a build that appends its pid to builds.log, as `npm start` runs it.
    const script = `
      import fs from 'node:fs';
      import path from 'node:path';
      import { buildOnce } from ${JSON.stringify(path.join(import.meta.dirname, 'build-once.ts'))};
      const root = process.argv[1];
      const result = await buildOnce({
        root,
        distDir: '.next',
        pollMs: 50,
        log: () => {},
        build: async () => {
          fs.appendFileSync(path.join(root, 'builds.log'), process.pid + '\\n');
          await new Promise((r) => setTimeout(r, 1500));
          fs.mkdirSync(path.join(root, '.next'), { recursive: true });
          fs.writeFileSync(path.join(root, '.next', 'BUILD_ID'), 'x');
          return 0;
        },
      });
      console.log(result.outcome);
    `;
    const run = () =>
      new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', script, root],
          { cwd: path.resolve(import.meta.dirname, '..'), timeout: 60_000 },
          (error, stdout) => (error ? reject(error) : resolve(stdout.trim())),
        ),
      );
    const outcomes = await Promise.all([run(), run(), run()]);
    expect(outcomes.sort()).toEqual(['built', 'fresh', 'fresh']);
    expect(fs.readFileSync(path.join(root, 'builds.log'), 'utf8').trim().split('\n')).toHaveLength(1);
  }, 60_000);

  it('takes over a lock left by a start that died', async () => {
    // A pid that is not running: the highest possible one.
    fs.writeFileSync(
      path.join(root, '.next.build.lock'),
      JSON.stringify({ pid: 4_194_304, host: os.hostname(), at: new Date().toISOString() }),
    );
    expect(await start()).toEqual({ outcome: 'built', waited: false });
    expect(builds).toBe(1);
  });
});
