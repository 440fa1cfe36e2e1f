// Prints one closing line for the whole suite, "Tests: N passed, N failed[, N skipped]", from the vitest and
// Playwright JSON reports, so a reader (or CI) sees the total without scrolling through both runners.
import fs from 'node:fs';

const read = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null);
const vitest = read('reports/vitest.json');
const playwright = read('reports/playwright.json');
if (!vitest || !playwright) {
  console.error('test-summary: a report is missing (reports/vitest.json, reports/playwright.json)');
  process.exit(1);
}
const passed = vitest.numPassedTests + (playwright.stats.expected ?? 0);
const failed = vitest.numFailedTests + (playwright.stats.unexpected ?? 0) + (playwright.stats.flaky ?? 0);
const skipped = vitest.numPendingTests + vitest.numTodoTests + (playwright.stats.skipped ?? 0);
console.log(`node ${process.version}`);
console.log(`Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed || passed === 0 ? 1 : 0);
