// How the app's server process is started, in one place: `npm start`, the HTTP tests, the benchmarks and the
// Playwright run all start `next start` through this, so what is tested and measured is what is served.
import path from 'node:path';

/**
 * Node/V8 flags of the server process, each trading a little CPU for resident memory. Measured with
 * bench/roster (peak RSS over three 500-appointment runs): 210-250 MB with the defaults, 180-205 MB with these and
 * SERVER_ENV, about 155 MB once Prisma's small query compiler build was added (prisma/schema.prisma); bench/load's
 * verify/health ratio did not move.
 */
export const SERVER_NODE_FLAGS = [
  // The young generation grows to 16 MiB semi-spaces by default; 4 MiB holds ~35 MB less for more frequent
  // (sub-millisecond) scavenges.
  '--max-semi-space-size=4',
  // The old generation grows by 25 % after a full collection instead of V8's up-to-4x, so a burst of work
  // (a 500-appointment roster) does not leave the heap twice the size it needs.
  '--heap-growing-percent=25',
];

/**
 * Environment of the server process. glibc gives every thread that allocates its own malloc arena, and V8's
 * compiler and GC threads and libuv's pool (scrypt) each keep theirs resident: two arenas hold ~25 MB less.
 * Fixed trim and mmap thresholds (128 KiB, glibc's starting values) stop glibc from raising them as large blocks are
 * freed, after which it kept freed memory at the top of its heap instead of returning it: bench/roster's peak RSS
 * 191-200 MB without them, 185-191 with.
 */
export const SERVER_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_TRIM_THRESHOLD_: '131072',
  MALLOC_MMAP_THRESHOLD_: '131072',
};

/** The command, arguments and environment additions that run `next start` from `root` with `args` (port, host). */
export function nextStartCommand(
  root: string,
  args: readonly string[],
): { command: string; args: string[]; env: Record<string, string> } {
  return {
    command: process.execPath,
    args: [...SERVER_NODE_FLAGS, path.join(root, 'node_modules/next/dist/bin/next'), 'start', ...args],
    env: SERVER_ENV,
  };
}
