// npm run bench -- x12-read: our 271 read plus the full ELIGIBILITY.md mapping against node-x12's bare parse of
// the same files, measured in one run after a warm-up. Prints the ratio as the last line, with the time of the
// slowest hostile 512 KiB 271 (lib/x12/fixtures/hostile-271.ts). Each shape's 256 and 512 KiB times go to stderr:
// about twice as long for twice the size (garbage collection makes it somewhat more); a quadratic reader took
// 0.9 s for 512 KiB of short segments and 76 s for 512 KiB of prior-auth codes. hostile-input.test.ts counts
// the reader's work instead of timing it.
import fs from 'node:fs';
import path from 'node:path';
import { X12Parser } from 'node-x12';
import { buildHostile271, type HostileShape } from '../lib/x12/fixtures/hostile-271';
import { readEligibility } from '../lib/x12/read-eligibility';
import { compareMedians } from './support/compare-medians';

const fixtures = path.join(import.meta.dirname, '..', 'lib', 'x12', 'fixtures');
const files = fs
  .readdirSync(fixtures)
  .filter((name) => name.startsWith('271-'))
  .map((name) => fs.readFileSync(path.join(fixtures, name), 'utf8'))
  .filter((text) => {
    try {
      readEligibility(text, { dateOfService: '2025-03-01', serviceTypeCode: '30' });
      return true;
    } catch {
      return false;
    }
  });
const corpus = Array.from({ length: 400 }, () => files).flat();
const options = { dateOfService: '2025-03-01', serviceTypeCode: '30' };

const { oursMs, theirsMs, sinks } = await compareMedians(import.meta.url, () => ({
  ours: () => {
    let read = 0;
    for (const text of corpus) read += readEligibility(text, options).priorAuthCodes.length;
    return read;
  },
  theirs: () => {
    // A parser per document, as node-x12 is meant to be used: one instance keeps every interchange it parsed in
    // one growing fat interchange (~100 MB a round here), whose collection then landed inside either side's timing.
    let read = 0;
    for (const text of corpus) read += new X12Parser(true).parse(text) ? 1 : 0;
    return read;
  },
}));

// Hostile inputs: each shape at 256 and 512 KiB, read in turn five times; the fastest read of each size counts,
// because a hostile read allocates enough for a collection to land in any one of them on a loaded machine.
const hostileShapes: HostileShape[] = [
  'many short segments',
  'many empty elements',
  'many repetitions',
  'spaced message',
];
let sink = 0;
const fastestMs = (texts: string[]) => {
  const fastest = texts.map(() => Infinity);
  for (let round = 0; round < 5; round++) {
    texts.forEach((text, i) => {
      const start = process.hrtime.bigint();
      sink += readEligibility(text, options).priorAuthCodes.length;
      fastest[i] = Math.min(fastest[i]!, Number(process.hrtime.bigint() - start) / 1e6);
    });
  }
  return fastest;
};
const hostile = hostileShapes.map((shape) => {
  const [ms256, ms512] = fastestMs([buildHostile271(shape, 256 * 1024), buildHostile271(shape, 512 * 1024)]) as [
    number,
    number,
  ];
  console.error(
    `hostile ${shape}: 256 KiB ${ms256.toFixed(1)} ms, 512 KiB ${ms512.toFixed(1)} ms (x${(ms512 / ms256).toFixed(1)})`,
  );
  return ms512;
});
const oursMsPerFile = oursMs / corpus.length;
const baselineMsPerFile = theirsMs / corpus.length;
console.error(`files: ${files.length} x 400, sinks ${JSON.stringify(sinks)} / ${sink}`);
console.log(
  JSON.stringify({
    name: 'x12-read',
    ratio: Number((oursMsPerFile / baselineMsPerFile).toFixed(3)),
    target: 0.33,
    oursMsPerFile: Number(oursMsPerFile.toFixed(4)),
    baselineMsPerFile: Number(baselineMsPerFile.toFixed(4)),
    hostile512KiBMs: Number(Math.max(...hostile).toFixed(1)),
  }),
);
