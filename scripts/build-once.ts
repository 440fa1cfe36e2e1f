// One build for a folder, only when the sources changed (issue 28 item 10, issue 29 item 4). Staleness is decided by
// content: a SHA-256 over the path and bytes of every source the build reads (BUILD_INPUTS, without tests and
// generated code) is stored beside the build after a successful build and compared at start, so touching a folder
// or writing a file again with the same bytes does not rebuild. Concurrent starts from one folder never run two
// builds: the build runs under a lock file (created exclusively, holding the builder's pid); a second start waits
// for it to go and then checks again, finding the fresh build. A lock left by a process that no longer runs is
// taken over.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** What `next build` reads, relative to the project folder. */
const BUILD_INPUTS = [
  'app',
  'lib',
  'components',
  'public',
  'middleware.ts',
  'proxy.ts',
  'instrumentation.ts',
  'next.config.mjs',
  'next.config.ts',
  'tsconfig.json',
  'postcss.config.mjs',
  'package.json',
  'package-lock.json',
  'prisma/schema.prisma',
];

/** Stored in the build folder after a successful build: the hash of the sources it was built from. */
export const SOURCE_HASH_FILE = 'svc-source-hash';

const isExcluded = (name: string) =>
  name === 'generated' ||
  name === 'node_modules' ||
  name.startsWith('.') ||
  /\.(test|spec)\.[cm]?[jt]sx?$/.test(name) ||
  name === '__tests__';

/** The hash of the build's sources under `root`: paths and contents only, never times. */
export function sourceHash(root: string, inputs: readonly string[] = BUILD_INPUTS): string {
  const hash = createHash('sha256');
  const visit = (relative: string) => {
    const full = path.join(root, relative);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(full);
    } catch {
      return; // absent: contributes nothing (and its later appearance changes the hash)
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(full).sort()) if (!isExcluded(name)) visit(path.posix.join(relative, name));
    } else if (stat.isFile()) {
      hash.update(`${relative}\0${createHash('sha256').update(fs.readFileSync(full)).digest('hex')}\n`);
    }
  };
  for (const input of inputs) visit(input);
  return hash.digest('hex');
}

export type BuildOnceOptions = {
  root: string;
  /** The build folder, relative to root or absolute (NEXT_DIST_DIR, default .next). */
  distDir: string;
  /** Runs the build; resolves with its exit status. */
  build: () => Promise<number>;
  log: (line: string) => void;
  /** How often a waiting start looks at the lock. Default 1000 ms. */
  pollMs?: number;
  inputs?: readonly string[];
};

export type BuildOutcome = { outcome: 'fresh' | 'built'; waited: boolean } | { outcome: 'failed'; status: number };

/** Builds when the stored source hash is missing or differs, one builder at a time per folder. */
export async function buildOnce(options: BuildOnceOptions): Promise<BuildOutcome> {
  // NEXT_DIST_DIR may be relative to the project or absolute; the lock sits beside the build folder either way.
  const dist = path.resolve(options.root, options.distDir);
  const lockFile = `${dist}.build.lock`;
  let waited = false;
  for (;;) {
    const hash = sourceHash(options.root, options.inputs);
    if (!isStale(dist, hash)) return { outcome: 'fresh', waited };
    const holder = takeLock(lockFile);
    if (holder === 'taken') {
      try {
        // Another start may have finished a build between our check and our lock.
        const current = sourceHash(options.root, options.inputs);
        if (!isStale(dist, current)) return { outcome: 'fresh', waited };
        options.log(
          fs.existsSync(path.join(dist, 'BUILD_ID'))
            ? 'building the app (sources changed)…'
            : 'building the app (first start)…',
        );
        // The hash of the sources as they were when the build began: a change during the build rebuilds next time.
        const status = await options.build();
        if (status !== 0) return { outcome: 'failed', status };
        fs.writeFileSync(path.join(dist, SOURCE_HASH_FILE), `${current}\n`);
        return { outcome: 'built', waited };
      } finally {
        fs.rmSync(lockFile, { force: true });
      }
    }
    if (!waited) options.log(`waiting for the build another start is running (pid ${holder.pid})…`);
    waited = true;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1000));
  }
}

function isStale(dist: string, hash: string): boolean {
  if (!fs.existsSync(path.join(dist, 'BUILD_ID'))) return true;
  try {
    return fs.readFileSync(path.join(dist, SOURCE_HASH_FILE), 'utf8').trim() !== hash;
  } catch {
    return true;
  }
}

/** 'taken', or who holds it. A lock whose process is gone (on this host) is removed and taken. */
function takeLock(lockFile: string): 'taken' | { pid: number } {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockFile, 'wx');
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, host: os.hostname(), at: new Date().toISOString() }));
      fs.closeSync(fd);
      return 'taken';
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readLock(lockFile);
    if (holder && (holder.host !== os.hostname() || isAlive(holder.pid))) return { pid: holder.pid };
    if (!holder) {
      // Just created and not yet written, or unreadable: give its writer a moment before judging it.
      const age = Date.now() - (fs.statSync(lockFile, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age < 5_000) return { pid: 0 };
    }
    fs.rmSync(lockFile, { force: true }); // its builder died: the build it left is checked again under our lock
  }
  return { pid: 0 };
}

function readLock(lockFile: string): { pid: number; host: string } | null {
  try {
    const value = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as { pid?: unknown; host?: unknown };
    return typeof value.pid === 'number' && typeof value.host === 'string'
      ? { pid: value.pid, host: value.host }
      : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
