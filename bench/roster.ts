// npm run bench -- roster: 500 appointments through the real POST /api/eligibility/roster of a started app
// (`next start` on a fresh PostgreSQL database, the live CAQH CORE adapter) against the loopback fake payer
// with a fixed 200 ms latency, at concurrency 20, against its floor measured in the same run: the same 500
// exchanges straight from this process through the CORE adapter alone (no route, database or 271 reading),
// at the same concurrency against the same fake. Target: the roster's wall time at most 1.03x the floor's,
// so the ratio says what the roster adds to the transport, whatever the machine's load. Beside it: the wall
// time against the ideal ceil(500/20) x 200 ms = 5000 ms, and the server's peak RSS during the runs (under
// 200 MB; VmHWM reset just before the runs; the start-up peak is printed beside it), and where each side's time
// went on the fake payer's clock (`phasesMs`: open, chain, tail and the connections' turnarounds; see phasesOf).
// Needs a build (NEXT_DIST_DIR, default .next) and the local PostgreSQL the HTTP tests use.
// BENCH_SERVER_NODE_OPTIONS is handed to the server as NODE_OPTIONS (e.g. --require a profiler preload).
// The last line is one JSON object {"name","ratio","target",...}.
import fs from 'node:fs';
import pLimit from 'p-limit';
import { coreTransport } from '../lib/eligibility/core-transport';
import { build270 } from '../lib/x12/build-270';
import { startApp } from '../test/support/app';
import { HttpClient, signIn } from '../test/support/http';
import { createTenant, createUser } from '../test/support/factories';
import { startFakePayer, type FakePayer } from '../test/fakes/core-payer';
import { median } from './support/median';

const APPOINTMENTS = 500;
// Runs of the same roster on fresh patients, each followed by a run of the floor: the cores are shared with
// whatever else the machine does, so each reported time is the median of its runs (every run is printed).
const RUNS = 3;
const CONCURRENCY = 20;
const LATENCY_MS = 200;
const IDEAL_MS = Math.ceil(APPOINTMENTS / CONCURRENCY) * LATENCY_MS;

/** VmHWM: the most resident memory the process has held since it started, in MB. */
function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024);
}

/** VmRSS: resident memory now, in MB. */
function rssNowMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

/**
 * Resets the process's VmHWM to its current RSS (Linux clear_refs "5"), so the next reading is the peak of
 * what follows. False when the kernel or permissions do not allow it (the reading then includes start-up).
 */
function resetPeakRss(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Where a run's time went, on the fake payer's clock: from the request to the first 270 arriving (open), from there
 * to the last 271 written (chain: 25 exchanges on each of 20 connections), and from there to the answer in hand
 * (tail); and each connection's turnaround between two exchanges, whose slowest decide the chain's end.
 */
function phasesOf(timings: ReturnType<FakePayer['takeTimings']>, started: number, ended: number) {
  const { firstArrival, lastAnswer, turnaroundsMs } = timings;
  if (firstArrival === null || lastAnswer === null) throw new Error('the fake payer saw no exchange in the run');
  const sorted = [...turnaroundsMs].sort((a, b) => a - b);
  const round = (ms: number) => Number(ms.toFixed(1));
  return {
    openMs: round(firstArrival - started),
    chainMs: round(lastAnswer - firstArrival),
    tailMs: round(ended - lastAnswer),
    turnaroundMeanMs: round(sorted.reduce((sum, ms) => sum + ms, 0) / Math.max(1, sorted.length)),
    turnaroundP90Ms: round(sorted[Math.floor(sorted.length * 0.9)] ?? 0),
  };
}
type Phases = ReturnType<typeof phasesOf>;

/** CPU time (user + system) the process has used, in ms. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

const fake = await startFakePayer({ latencyMs: LATENCY_MS });
// The live transport, as a clinic runs it. Sandbox mode, because production refuses the fake payer's http: URL
// (DECISIONS "Security findings of 2026-11-28"); the demo seeding that sandbox adds happens before the clock starts.
const app = await startApp({
  env: {
    SVC_ENV: 'sandbox',
    LOG_LEVEL: 'error',
    NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS,
    ELIGIBILITY_CORE_URL: fake.url,
    ELIGIBILITY_CORE_USERNAME: fake.username,
    ELIGIBILITY_CORE_PASSWORD: fake.password,
    ELIGIBILITY_SENDER_ID: fake.senderId,
    ELIGIBILITY_RECEIVER_ID: fake.receiverId,
  },
});
try {
  const tenant = await createTenant(app.db, 'Bench');
  const user = await createUser(app.db, tenant, { scopes: ['eligibility:read'] });
  // Distinct patients, so no lookup is a cache hit: every appointment is one 270 to the payer.
  const patients = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: `pat_${prefix}_${String(i).padStart(4, '0')}`,
      clinicId: tenant.clinicId,
      firstName: 'Bench',
      lastName: `Patient${i}`,
      birthDate: '1980-01-02',
      coverageMemberId: `DEMO-ACTIVE-${prefix.toUpperCase()}${i}`,
      coveragePayerId: '60054',
      coveragePayerName: 'Aetna',
    }));
  const warmUp = patients('warm', 40);
  const runs = Array.from({ length: RUNS }, (_, run) => patients(`bench${run}`, APPOINTMENTS));
  await app.db.patient.createMany({ data: [...warmUp, ...runs.flat()] });
  const client = await signIn(app, user.email, user.password);
  const start = new Date().toISOString();
  const roster = (list: { id: string }[]) => ({
    appointments: list.map((p) => ({ patientId: p.id, start })),
    concurrency: CONCURRENCY,
  });

  // Warm-up: route compiled and loaded, connection pools to the database and the payer open.
  const warm = await client.post('/api/eligibility/roster', roster(warmUp));
  if (warm.status !== 200 || warm.body.summary.active !== warmUp.length)
    throw new Error(`warm-up failed: ${warm.status} ${warm.text.slice(0, 300)}`);
  // The warm-up's answer was checked against the OpenAPI document (the test client does that for every answer);
  // the measured ones are not: validating 500 results took 4-6 ms of each run's tail, work of the test harness that
  // no client of the roster does, and that the floor does not have.
  HttpClient.checkContract = false;

  // The floor: the CORE adapter alone in this process, the same fake, the same concurrency.
  const transport = coreTransport({
    url: fake.url,
    username: fake.username,
    password: fake.password,
    senderId: fake.senderId,
    receiverId: fake.receiverId,
  });
  const request = (i: number) =>
    build270({
      interchangeControlNumber: i + 1,
      groupControlNumber: i + 1,
      transactionControlNumber: '0001',
      senderId: fake.senderId,
      receiverId: fake.receiverId,
      createdAt: new Date(),
      payer: { id: '60054', name: 'Aetna' },
      provider: { npi: '1234567893', name: 'Bench' },
      subscriber: {
        memberId: `DEMO-ACTIVE-FLOOR${i}`,
        firstName: 'Bench',
        lastName: 'Patient',
        birthDate: '1980-01-02',
      },
      serviceTypeCodes: ['30'],
      dateOfService: start.slice(0, 10),
      traceNumber: `FLOOR${i}`,
    });
  const runFloor = async (exchanges: number) => {
    const limit = pLimit(CONCURRENCY);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: exchanges }, (_, i) =>
        limit(() => transport.send(request(i), { correlationId: `bench-floor-${i}` })),
      ),
    );
    return Math.round(performance.now() - started);
  };
  await runFloor(warmUp.length); // warm-up of this process's side: JIT, keep-alive sockets to the fake

  const processPeakRssMb = peakRssMb(app.pid); // start-up, sign-in (scrypt) and the warm-up
  const rssBeforeRunMb = rssNowMb(app.pid);
  const peakReset = resetPeakRss(app.pid);
  const cpuBefore = cpuMs(app.pid);
  const wallRuns: number[] = [];
  const transportOnlyRuns: number[] = [];
  const phases: { roster: Phases; floor: Phases }[] = [];
  for (const measured of runs) {
    const callsBefore = fake.calls;
    fake.takeTimings(); // from here on, this run's exchanges
    const started = performance.now();
    const res = await client.post('/api/eligibility/roster', roster(measured));
    const ended = performance.now();
    wallRuns.push(Math.round(ended - started));
    const rosterPhases = phasesOf(fake.takeTimings(), started, ended);
    if (res.status !== 200) throw new Error(`roster failed: ${res.status} ${res.text.slice(0, 300)}`);
    const { summary } = res.body as { summary: Record<string, number> };
    if (summary.active !== APPOINTMENTS || fake.calls - callsBefore !== APPOINTMENTS) {
      throw new Error(
        `expected ${APPOINTMENTS} active lookups, got ${JSON.stringify(summary)} with ${fake.calls - callsBefore} payer calls`,
      );
    }
    // Right after, so both see the same machine load.
    const floorStarted = performance.now();
    transportOnlyRuns.push(await runFloor(APPOINTMENTS));
    phases.push({ roster: rosterPhases, floor: phasesOf(fake.takeTimings(), floorStarted, performance.now()) });
  }
  const serverCpuMs = Math.round((cpuMs(app.pid) - cpuBefore) / RUNS); // the server idles during the floor runs
  const wallMs = median(wallRuns);
  const transportOnlyMs = median(transportOnlyRuns);
  const rssMb = peakRssMb(app.pid);
  const medianPhases = (side: 'roster' | 'floor') =>
    Object.fromEntries(
      (Object.keys(phases[0]![side]) as (keyof Phases)[]).map((key) => [key, median(phases.map((p) => p[side][key]))]),
    );
  console.error(`roster: ${APPOINTMENTS} appointments, concurrency ${CONCURRENCY}, payer latency ${LATENCY_MS} ms`);
  console.error(
    `wall ${wallMs} ms, the median of ${wallRuns.join(', ')} ms; the CORE adapter alone, same load: ${transportOnlyMs} ms, the median of ${transportOnlyRuns.join(', ')} ms (ideal ${IDEAL_MS} ms); payer peak in flight ${fake.peakInFlight}`,
  );
  for (const [i, { roster: r, floor: f }] of phases.entries()) {
    console.error(
      `run ${i + 1} on the fake's clock: roster open ${r.openMs} ms, chain ${r.chainMs}, tail ${r.tailMs}, turnaround mean ${r.turnaroundMeanMs} p90 ${r.turnaroundP90Ms}; adapter open ${f.openMs}, chain ${f.chainMs}, tail ${f.tailMs}, turnaround mean ${f.turnaroundMeanMs} p90 ${f.turnaroundP90Ms}`,
    );
  }
  console.error(
    `server (${fs.readFileSync(`/proc/${app.pid}/comm`, 'utf8').trim()}): peak RSS ${rssMb} MB ${peakReset ? 'during the runs' : 'since start'} (${rssBeforeRunMb} MB resident as it began; ${processPeakRssMb} MB peak before it: start-up, sign-in, warm-up); CPU ${serverCpuMs} ms a run`,
  );
  console.log(
    JSON.stringify({
      name: 'roster',
      ratio: Number((wallMs / transportOnlyMs).toFixed(3)),
      target: 1.03,
      wallMs,
      wallRuns,
      transportOnlyMs,
      transportOnlyRuns,
      idealMs: IDEAL_MS,
      idealRatio: Number((wallMs / IDEAL_MS).toFixed(3)),
      transportOnlyRatio: Number((transportOnlyMs / IDEAL_MS).toFixed(3)),
      peakRssMb: rssMb,
      rssTargetMb: 200,
      peakRssScope: peakReset ? 'run' : 'process',
      rssBeforeRunMb,
      processPeakRssMb,
      peakInFlight: fake.peakInFlight,
      serverCpuMs,
      phasesMs: { roster: medianPhases('roster'), transportOnly: medianPhases('floor') },
    }),
  );
} finally {
  await app.stop();
  await fake.close();
}
