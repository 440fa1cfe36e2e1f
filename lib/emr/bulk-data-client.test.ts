// The Bulk Data client against the fake EMR over loopback, through the real egress client and real tokens (a
// signed client assertion the fake verifies): deletions from the manifest's `deleted` files, transient errors and
// 429s retried instead of failing the pull, the ruled polling limits (Retry-After clamped to [10 s, 30 min], 24
// hours in all) on a simulated clock, and cancellation by an AbortSignal. Counts come from the fake.
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEgress } from '@/lib/outbound/egress';
import { startFakeEmr, type FakeEmr } from '@/test/fakes/fake-emr';
import { rejection } from '@/test/support/rejection';
import { runBulkExport, type BulkExportInput, type DeletedResource } from './bulk-data-client';
import { requestBackendServicesToken } from './token-client';

const CLIENT_ID = 'bulk-client';
const TYPES = ['Patient', 'Encounter', 'Observation', 'Condition', 'MedicationRequest', 'AllergyIntolerance'];
const egress = createEgress({ mode: 'sandbox', allowedOrigins: [] });
const HOUR = 60 * 60_000;

let keys: { privateKeyPem: string; publicKeyPem: string };
let emr: FakeEmr | undefined;

beforeAll(async () => {
  const pair = await generateKeyPair('ES384', { extractable: true });
  keys = { privateKeyPem: await exportPKCS8(pair.privateKey), publicKeyPem: await exportSPKI(pair.publicKey) };
});
afterEach(async () => {
  await emr?.close();
  emr = undefined;
});

async function start(): Promise<FakeEmr> {
  emr = await startFakeEmr({ clientId: CLIENT_ID, publicKeyPem: keys.publicKeyPem, bulkExport: {} });
  return emr;
}

/** A simulated clock: every sleep moves it on at once and is recorded. */
function simulatedTime(onSleep?: (count: number) => void) {
  let now = Date.parse('2026-11-28T08:00:00Z');
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => new Date(now),
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
      onSleep?.(sleeps.length);
    },
    elapsedMs: () => now - Date.parse('2026-11-28T08:00:00Z'),
  };
}

function input(fake: FakeEmr, extra: Partial<BulkExportInput> = {}): BulkExportInput {
  const token = () =>
    requestBackendServicesToken({
      egress,
      target: 'operator',
      tokenUrl: fake.tokenUrl,
      clientId: CLIENT_ID,
      privateKeyPem: keys.privateKeyPem,
      keyId: 'k1',
      scope: 'system/*.read',
    }).then((t) => t.accessToken);
  let current: Promise<string> | null = null;
  return {
    egress,
    baseUrl: fake.fhirBaseUrl,
    groupId: '*',
    types: TYPES,
    tokens: { get: () => (current ??= token()), refresh: () => (current = token()) },
    onResource: async () => undefined,
    ...extra,
  };
}

describe('deletions', () => {
  it("hands every DELETE of the manifest's deleted files to onDeleted, only for the requested types", async () => {
    const fake = await start();
    fake.bulkNext({
      deleted: [
        { resourceType: 'Patient', id: 'pat-1' },
        { resourceType: 'Observation', id: 'obs-9' },
        { resourceType: 'Practitioner', id: 'pr-1' },
      ],
    });
    const deleted: DeletedResource[] = [];
    const time = simulatedTime();
    const result = await runBulkExport(
      input(fake, { since: '2024-03-01', onDeleted: (d) => void deleted.push(d), ...time }),
    );
    expect(result.deletedFiles).toBe(1);
    expect(deleted).toEqual([
      { resourceType: 'Patient', id: 'pat-1' },
      { resourceType: 'Observation', id: 'obs-9' },
    ]);
    expect(fake.bulk.fileDownloads.some((d) => d.path.endsWith('/Deleted.ndjson'))).toBe(true);
  });

  it('lists no deletions without _since', async () => {
    const fake = await start();
    fake.bulkNext({ deleted: [{ resourceType: 'Patient', id: 'pat-1' }] });
    const deleted: DeletedResource[] = [];
    const result = await runBulkExport(input(fake, { onDeleted: (d) => void deleted.push(d), ...simulatedTime() }));
    expect(result.deletedFiles).toBe(0);
    expect(deleted).toEqual([]);
  });
});

describe('transient errors', () => {
  it('polls again after a 500 whose OperationOutcome says transient, and never DELETEs the good export early', async () => {
    const fake = await start();
    fake.bulkNext({ transientFailures: 2 });
    const time = simulatedTime();
    const deletesDuringPolls: number[] = [];
    const result = await runBulkExport(
      input(fake, {
        ...time,
        sleep: async (ms) => {
          deletesDuringPolls.push(fake.bulk.deletes.length);
          await time.sleep(ms);
        },
      }),
    );
    expect(result.files).toBe(TYPES.length);
    expect(fake.bulk.polls).toBe(3);
    // Backoff: 10 s, then half as much again.
    expect(time.sleeps).toEqual([10_000, 15_000]);
    expect(deletesDuringPolls).toEqual([0, 0]);
    expect(fake.bulk.deletes).toEqual([fake.bulk.jobs[0]]);
  });

  it('still fails (and DELETEs) on an error that is not transient', async () => {
    const fake = await start();
    fake.bulkNext({ statusFailure: 500 });
    const error = await rejection(runBulkExport(input(fake, simulatedTime())));
    expect(error.code).toBe('TRANSPORT_FAILED');
    expect(fake.bulk.polls).toBe(1);
    expect(fake.bulk.deletes).toHaveLength(1);
  });

  it('gives up after ten transient failures in a row', async () => {
    const fake = await start();
    fake.bulkNext({ transientFailures: 50 });
    const error = await rejection(runBulkExport(input(fake, simulatedTime())));
    expect(error.code).toBe('TRANSPORT_FAILED');
    expect(fake.bulk.polls).toBe(11);
    expect(fake.bulk.deletes).toHaveLength(1);
  });

  it('kicks off again after a 429, waiting the Retry-After clamped to 10 s', async () => {
    const fake = await start();
    fake.bulkNext({ kickOffTooMany: 2 });
    const time = simulatedTime();
    const result = await runBulkExport(input(fake, time));
    expect(result.files).toBe(TYPES.length);
    expect(fake.bulk.kickOffs).toHaveLength(3);
    expect(fake.bulk.jobs).toHaveLength(1);
    expect(time.sleeps).toEqual([10_000, 10_000]);
  });

  it('gives up a kick-off the EHR keeps refusing with 429, after six attempts', async () => {
    const fake = await start();
    fake.bulkNext({ kickOffTooMany: 100 });
    const error = await rejection(runBulkExport(input(fake, simulatedTime())));
    expect(error.code).toBe('TRANSPORT_FAILED');
    expect(fake.bulk.kickOffs).toHaveLength(6);
    expect(fake.bulk.deletes).toEqual([]);
  });
});

describe('limits', () => {
  it('completes a 2-hour export polled every 10 minutes as the server asks', async () => {
    const fake = await start();
    fake.bulkNext({ pollsBeforeReady: 12, retryAfter: '600' });
    const time = simulatedTime();
    const result = await runBulkExport(input(fake, time));
    expect(result.files).toBe(TYPES.length);
    expect(fake.bulk.polls).toBe(13);
    expect(time.elapsedMs()).toBe(2 * HOUR);
  });

  it('clamps Retry-After to at least 10 s and at most 30 min', async () => {
    const fake = await start();
    fake.bulkNext({ pollsBeforeReady: 2, retryAfter: '1' });
    const quick = simulatedTime();
    await runBulkExport(input(fake, quick));
    expect(quick.sleeps).toEqual([10_000, 10_000]);

    fake.bulkNext({ pollsBeforeReady: 2, retryAfter: '7200' });
    const slow = simulatedTime();
    await runBulkExport(input(fake, slow));
    expect(slow.sleeps).toEqual([30 * 60_000, 30 * 60_000]);
  });

  it('gives up after 24 hours of polling, and DELETEs the export', async () => {
    const fake = await start();
    fake.bulkNext({ pollsBeforeReady: 1000, retryAfter: '1800' });
    const time = simulatedTime();
    const error = await rejection(runBulkExport(input(fake, time)));
    expect(error.code).toBe('TRANSPORT_FAILED');
    expect(time.elapsedMs()).toBe(24 * HOUR);
    expect(fake.bulk.polls).toBe(49);
    expect(fake.bulk.deletes).toHaveLength(1);
  });
});

describe('cancellation', () => {
  it('stops polling when the signal aborts between polls, and DELETEs the export', async () => {
    const fake = await start();
    fake.bulkNext({ pollsBeforeReady: 100, retryAfter: '60' });
    const controller = new AbortController();
    const time = simulatedTime((count) => count === 3 && controller.abort());
    const error = await rejection(runBulkExport(input(fake, { ...time, signal: controller.signal })));
    expect(error.message).toBe('The pull was cancelled; nothing was saved');
    expect(fake.bulk.polls).toBe(3);
    expect(fake.bulk.deletes).toEqual([fake.bulk.jobs[0]]);
  });

  it('ends a real wait at once when aborted (no 10-second sleep to sit out)', async () => {
    const fake = await start();
    fake.bulkNext({ pollsBeforeReady: 100, retryAfter: '600' });
    const controller = new AbortController();
    const started = Date.now();
    const pull = runBulkExport(input(fake, { signal: controller.signal }));
    while (fake.bulk.polls < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const error = await rejection(pull);
    expect(error.message).toBe('The pull was cancelled; nothing was saved');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(fake.bulk.polls).toBe(1);
    expect(fake.bulk.deletes).toHaveLength(1);
  });

  it('does not kick off at all when already cancelled', async () => {
    const fake = await start();
    const controller = new AbortController();
    controller.abort();
    await rejection(runBulkExport(input(fake, { ...simulatedTime(), signal: controller.signal })));
    expect(fake.bulk.kickOffs).toHaveLength(0);
  });
});
