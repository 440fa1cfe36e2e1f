// Unit tests sit beside their modules (lib/**, components/**), HTTP tests in test/api. Playwright specs (e2e/) are
// not vitest's.
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Files that take minutes (a real production build; 20,000 fuzzed requests) start first, so the other worker works
// through the rest beside them. A clean clone has no timing cache to order by, and vitest's fallback (larger files
// first) left the fleet build running alone for the last two minutes of the suite.
const LONGEST_FIRST = ['scripts/start-fleet.test.ts', 'test/api/fuzz.test.ts'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((name) => file.moduleId.endsWith(`/${name}`));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    const sorted = await super.sort(files);
    return sorted
      .map((file, i) => ({ file, i }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.i - b.i)
      .map((x) => x.file);
  }
}

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['lib/**/*.test.ts', 'components/**/*.test.ts', 'test/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each HTTP test file starts its own app process, so a worker is often waiting on it (or on PostgreSQL): with two
    // workers the two cores sat idle 30 % of the time, with three 16 %. On a slow machine ten of the slowest HTTP
    // files took 230 s with two workers and 189 s with three, the whole suite 1,041 s and 973 s. More would crowd
    // the cores past the tests' timeouts.
    maxWorkers: 3,
    // A worker keeps its modules from one file to the next instead of importing them all again: the HTTP files each
    // loaded the Prisma client, the endpoint registry and zod's schemas anew (the suite's import time 239 s -> 31 s,
    // the suite 895 s -> 773 s on a slow machine). Safe while no test mocks a module or changes process-wide state
    // (none does: no vi.mock, no stubbed globals, no process.env writes); a test that must would go in a project of
    // its own with isolate on.
    isolate: false,
    sequence: { sequencer: LongestFirst },
  },
});
