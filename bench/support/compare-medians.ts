// Times two synchronous workloads against each other in one run: a warm-up of both, then interleaved rounds (so
// both see the same machine load), each round the median of three runs. Returns the median round of each, in ms.

function medianOf(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

function timeRuns(run: () => void, runs: number): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    run();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return medianOf(samples); // median run: robust on a shared machine
}

export function compareMedians(ours: () => void, theirs: () => void): { oursMs: number; theirsMs: number } {
  for (let i = 0; i < 5; i++) {
    ours();
    theirs();
  }
  const oursMs: number[] = [];
  const theirsMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    oursMs.push(timeRuns(ours, 3));
    theirsMs.push(timeRuns(theirs, 3));
  }
  return { oursMs: medianOf(oursMs), theirsMs: medianOf(theirsMs) };
}
