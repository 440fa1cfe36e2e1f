// Times two synchronous workloads against each other in one run, each in a worker thread of its own: a warm-up of
// both, then interleaved rounds (so both see the same machine load), each round the median of three runs. Returns
// the median round of each, in ms.
// Apart, because a heap shared by two parsers makes each pay for the other's garbage: node-x12 leaves a large
// parse tree in the old generation after every run, and until a full collection clears it, its pointers into the
// young generation keep the next run's young objects alive and make one of that run's scavenges copy them: about
// 25 ms, landing in our 835 read in roughly one run of three (1.2 ms a file or 3 ms, bench era-read). A worker has
// a V8 heap of its own, so each side collects only what it allocated.
//
// A bench calls `compareMedians(import.meta.url, workloads)` from its top level; the file then runs again in each
// worker, where the call serves its side (`workloads` built there too) and never resolves.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { median } from './median';

type Side = 'ours' | 'theirs';
/** Each run returns a number derived from what it read, summed and reported, so no read can be optimised away. */
type Workloads = Record<Side, () => number>;

let sink = 0;

function timeRuns(run: () => number, runs: number): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    sink += run();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples); // median run: robust on a shared machine
}

type Timing = { ms: number; sink: number };

/** A worker running `file` for one side: each message asks for the median of that many runs. */
function startSide(file: string, side: Side) {
  const worker = new Worker(new URL(file), { workerData: { compareMediansSide: side } });
  let pending: { resolve(timing: Timing): void; reject(error: unknown): void } | null = null;
  worker.on('message', (timing: Timing) => pending?.resolve(timing));
  worker.on('error', (error) => pending?.reject(error));
  return {
    time: (runs: number) =>
      new Promise<Timing>((resolve, reject) => {
        pending = { resolve, reject };
        worker.postMessage(runs);
      }),
    stop: () => worker.terminate(),
  };
}

/** The median round of each side in ms, and each side's sink (the sum of what its runs returned). */
export async function compareMedians(
  file: string,
  workloads: () => Workloads,
): Promise<{ oursMs: number; theirsMs: number; sinks: Record<Side, number> }> {
  const side = (workerData as { compareMediansSide?: Side } | null)?.compareMediansSide;
  if (!isMainThread && side) {
    const run = workloads()[side];
    parentPort!.on('message', (runs: number) =>
      parentPort!.postMessage({ ms: timeRuns(run, runs), sink } satisfies Timing),
    );
    return new Promise(() => {}); // this worker serves until the main thread stops it
  }
  const ours = startSide(file, 'ours');
  const theirs = startSide(file, 'theirs');
  try {
    for (let i = 0; i < 5; i++) {
      await ours.time(1);
      await theirs.time(1);
    }
    const rounds: Record<Side, Timing[]> = { ours: [], theirs: [] };
    for (let i = 0; i < 5; i++) {
      rounds.ours.push(await ours.time(3));
      rounds.theirs.push(await theirs.time(3));
    }
    const shown = (timings: Timing[]) => timings.map((r) => r.ms.toFixed(2)).join(', ');
    console.error(`rounds (ms): ours ${shown(rounds.ours)}; theirs ${shown(rounds.theirs)}`);
    return {
      oursMs: median(rounds.ours.map((r) => r.ms)),
      theirsMs: median(rounds.theirs.map((r) => r.ms)),
      sinks: { ours: rounds.ours.at(-1)!.sink, theirs: rounds.theirs.at(-1)!.sink },
    };
  } finally {
    await Promise.all([ours.stop(), theirs.stop()]);
  }
}
