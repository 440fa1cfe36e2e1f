// Unit tests sit beside their modules (lib/**), HTTP tests in test/api. Playwright specs (e2e/) are not vitest's.
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['lib/**/*.test.ts', 'test/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each HTTP test file starts its own app process; two cores cannot run many at once.
    maxWorkers: 2,
  },
});
