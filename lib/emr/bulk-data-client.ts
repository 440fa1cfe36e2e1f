// A FHIR Bulk Data Access (IG v2) client for the SMART backend pull: kick-off, status polling, the manifest, the
// NDJSON files streamed line by line, and the DELETE that releases the job. Does not decide what a resource may
// be nor where it goes (the caller's onResource does), and never requests a token itself (the caller's tokens do).
//
// - Kick-off: `GET {base}/Group/{id}/$export` (`{base}/$export` for the "*" binding) with `_type`, `_since`,
//   `Prefer: respond-async` and `Accept: application/fhir+json`; 202 with an absolute `Content-Location`.
// - Kick-off answered 429 (or a 5xx whose OperationOutcome says `transient`) is tried again after `Retry-After` or
//   a growing backoff, at most MAX_KICK_OFF_ATTEMPTS times.
// - Status: polled honouring `Retry-After` (seconds or an HTTP date; also on 429), else a growing backoff, each wait
//   clamped to [10 s, 30 min] (DECISIONS "Security findings of 2026-11-28", EMR pulls), for up to 24 hours in all;
//   `X-Progress` is reported. 200 is the manifest. An error answer whose OperationOutcome marks it transient
//   (issue code `transient`, or one of its narrower codes) is a failed poll, not a failed export: it is polled
//   again with backoff (at most MAX_TRANSIENT_IN_A_ROW in a row), and the export is not DELETEd for it.
// - Cancellation: `signal` (an AbortSignal) is checked before every request and ends any wait at once; a cancelled
//   pull DELETEs the export like any other abandoned one.
// - Deletions: the manifest's `deleted` files (NDJSON of transaction Bundles whose entries are `DELETE Type/id`,
//   Bulk Data IG v2 with `_since`) are read after the output files; each deleted resource of a requested type is
//   handed to `onDeleted`.
// - Error files (`error[]`, OperationOutcome NDJSON) are read first and their issues logged (severity and code,
//   never the text, which may name a patient). An issue of severity error or fatal means the export is incomplete:
//   the pull fails closed with nothing saved. Warnings and information are logged and the pull goes on.
// - Output files of the requested types are downloaded streamed, with the bearer token when the manifest says
//   `requiresAccessToken` (true when absent). A 401 gets a fresh token and one retry.
// - Every URL the server hands back (status, files) must be on the EHR's own origin: the token never follows one
//   elsewhere (DECISIONS "Trust boundaries"), and a file hosted elsewhere is refused rather than fetched.
// - The job is DELETEd when done or abandoned, success or failure; a failed DELETE is only logged.
// Every call goes through the egress client as an operator target (the base comes from EMR_VENDORS).
import { z } from 'zod';
import { AppError } from '../errors';
import { egressError, loggableUrl, MIB, type Egress, type EgressStream } from '../outbound/egress';
import { ndjsonLines, NdjsonLineTooLong } from './bulk-ndjson-lines';
import { parseRetryAfter } from './bulk-retry-after';

/** Bearer tokens for the run: `get` answers the current one (renewing it near expiry), `refresh` a new one. */
export type BulkTokens = { get(): Promise<string>; refresh(): Promise<string> };

export type BulkProgress =
  | { phase: 'exporting'; polls: number; serverProgress?: string }
  | { phase: 'downloading'; files: number; filesDone: number };

type Log = { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };

export type BulkExportInput = {
  egress: Egress;
  baseUrl: string;
  /** The bound Group id, or "*" for a system-level export. */
  groupId: string;
  types: readonly string[];
  /** FHIR instant or date: only resources changed since (`_since`). */
  since?: string;
  tokens: BulkTokens;
  /** Called with each parsed NDJSON line of an output file (and its text; awaited: the download waits for it). */
  onResource(resource: unknown, line: string): Promise<void>;
  /** Called with each resource the manifest's `deleted` files list (of a requested type; awaited). */
  onDeleted?(deleted: DeletedResource): Promise<void> | void;
  onProgress?(progress: BulkProgress): void;
  log?: Log;
  /** Cancels the pull: checked before every request to the EHR and ends any wait; the export is then DELETEd. */
  signal?: AbortSignal;
  /** Injected by tests (a simulated clock): waits `ms`, or rejects as soon as `signal` aborts. */
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
  now?(): Date;
  /** Total time spent waiting on the status endpoint before the export is abandoned. Default 24 hours. */
  maxWaitMs?: number;
};

/** A resource the EHR deleted since `_since`, by its type and id on the EHR. */
export type DeletedResource = { resourceType: string; id: string };

export type BulkExportResult = {
  transactionTime: string | null;
  files: number;
  errorFiles: number;
  /** Files in the manifest's `deleted` array. */
  deletedFiles: number;
};

const KICK_OFF_TIMEOUT_MS = 30_000;
const STATUS_TIMEOUT_MS = 30_000;
const FILE_TIMEOUT_MS = 30 * 60_000;
const DELETE_TIMEOUT_MS = 10_000;
const MAX_SMALL_BODY_BYTES = MIB;
const MAX_MANIFEST_BYTES = 64 * MIB;
const MAX_FILE_BYTES = 8 * 1024 * MIB;
const MAX_ERROR_FILE_BYTES = 64 * MIB;
const MAX_LINE_BYTES = 16 * MIB;
// The ruled limits (DECISIONS "Security findings of 2026-11-28", EMR pulls): up to 24 hours of polling, each wait the
// server's Retry-After clamped to at least 10 s and at most 30 min; without one, FIRST_BACKOFF growing by half.
// Epic and Oracle expect exports of hours and polls every 10 to 30 minutes.
export const DEFAULT_MAX_WAIT_MS = 24 * 60 * 60_000;
export const MIN_WAIT_MS = 10_000;
export const MAX_WAIT_MS = 30 * 60_000;
const FIRST_BACKOFF_MS = MIN_WAIT_MS;
const MAX_BACKOFF_MS = MAX_WAIT_MS;
// Failed polls the EHR calls transient, in a row, before the export is given up (backoff: about 19 minutes).
const MAX_TRANSIENT_IN_A_ROW = 10;
// Kick-off attempts when the EHR answers 429 or a transient error.
const MAX_KICK_OFF_ATTEMPTS = 6;
// IssueType `transient` and its narrower codes except `exception`, which EHRs use for an export that failed.
const TRANSIENT_ISSUE_CODES = new Set(['transient', 'lock-error', 'no-store', 'timeout', 'throttled']);
const MAX_PROGRESS_CHARS = 200;

const FileItem = z.object({ type: z.string(), url: z.string(), count: z.number().optional() });
const Manifest = z.object({
  transactionTime: z.string().optional(),
  requiresAccessToken: z.boolean().optional(),
  output: z.array(FileItem),
  error: z.array(FileItem).optional(),
  deleted: z.array(FileItem).optional(),
});
const DeletionBundle = z.object({
  resourceType: z.literal('Bundle'),
  entry: z
    .array(z.looseObject({ request: z.looseObject({ method: z.string(), url: z.string() }).optional() }))
    .optional(),
});
// A deleted entry's request.url: `Type/id`, relative or under the server's base.
const DELETED_URL = /^([A-Z][A-Za-z]{1,63})\/([A-Za-z0-9\-.]{1,64})$/;
const OperationOutcome = z.object({
  resourceType: z.literal('OperationOutcome'),
  issue: z
    .array(
      z.looseObject({
        severity: z.string().optional(),
        code: z.string().optional(),
        details: z
          .looseObject({ coding: z.array(z.looseObject({ code: z.string().optional() })).optional() })
          .optional(),
      }),
    )
    .optional(),
});

export async function runBulkExport(input: BulkExportInput): Promise<BulkExportResult> {
  const base = new URL(input.baseUrl.replace(/\/+$/, ''));
  const sleep = input.sleep ?? abortableSleep;
  const now = input.now ?? (() => new Date());
  const wait = async (ms: number) => {
    throwIfCancelled(input.signal);
    await sleep(ms, input.signal);
    throwIfCancelled(input.signal);
  };
  let statusUrl: URL | null = null;
  try {
    throwIfCancelled(input.signal);
    statusUrl = await kickOff(input, base, wait, now);
    const manifest = await waitForManifest(input, base, statusUrl, wait, now);
    const withToken = manifest.requiresAccessToken ?? true;
    const errorFiles = manifest.error ?? [];
    // Errors first: an incomplete export is refused before anything is staged.
    let failed = 0;
    for (const item of errorFiles) failed += await readErrorFile(input, base, item, withToken);
    if (failed > 0) {
      throw new AppError('TRANSPORT_FAILED', 'The EMR reported errors in its export; nothing was saved', {
        cause: { purpose: 'emr', reason: 'export-errors', issues: failed, errorFiles: errorFiles.length },
      });
    }
    const wanted = new Set(input.types);
    const files = manifest.output.filter((item) => wanted.has(item.type));
    const skipped = manifest.output.length - files.length;
    if (skipped) input.log?.warn({ skipped }, 'bulk export: output files of types not asked for were skipped');
    input.onProgress?.({ phase: 'downloading', files: files.length, filesDone: 0 });
    for (const [done, item] of files.entries()) {
      throwIfCancelled(input.signal);
      await readOutputFile(input, base, item, withToken);
      input.onProgress?.({ phase: 'downloading', files: files.length, filesDone: done + 1 });
    }
    const deletedFiles = manifest.deleted ?? [];
    for (const item of deletedFiles) {
      throwIfCancelled(input.signal);
      await readDeletedFile(input, base, item, withToken, wanted);
    }
    return {
      transactionTime: manifest.transactionTime ?? null,
      files: files.length,
      errorFiles: errorFiles.length,
      deletedFiles: deletedFiles.length,
    };
  } finally {
    if (statusUrl) await deleteJob(input, statusUrl);
  }
}

async function kickOff(
  input: BulkExportInput,
  base: URL,
  wait: (ms: number) => Promise<void>,
  now: () => Date,
): Promise<URL> {
  const path = input.groupId === '*' ? '$export' : `Group/${encodeURIComponent(input.groupId)}/$export`;
  const url = new URL(`${base.href}/${path}`);
  url.searchParams.set('_type', input.types.join(','));
  if (input.since) url.searchParams.set('_since', toInstant(input.since));
  const where = loggableUrl(url);
  let backoff = FIRST_BACKOFF_MS;
  for (let attempt = 1; ; attempt++) {
    const response = await withFreshTokenOn401(input.tokens, (token) =>
      input.egress.request({
        url,
        headers: { accept: 'application/fhir+json', prefer: 'respond-async', authorization: `Bearer ${token}` },
        target: 'operator',
        purpose: 'emr',
        maxBodyBytes: MAX_SMALL_BODY_BYTES,
        timeoutMs: KICK_OFF_TIMEOUT_MS,
      }),
    );
    if (response.status === 202) {
      const location = response.headers.get('content-location');
      if (!location) throw egressError('emr', { reason: 'invalid-body', url: where, problem: 'no Content-Location' });
      return sameOrigin(location, url, base, 'status');
    }
    // Too many exports at once (429), or a passing failure the EHR says is transient: try again later.
    const retryable = response.status === 429 || isTransientOutcome(response.status, response.text());
    if (!retryable || attempt >= MAX_KICK_OFF_ATTEMPTS) {
      throw egressError('emr', { reason: 'status', url: where, status: response.status, attempts: attempt });
    }
    const delay = clampWait(parseRetryAfter(response.headers.get('retry-after'), now()) ?? backoff);
    backoff = Math.min(MAX_BACKOFF_MS, Math.round(backoff * 1.5));
    input.log?.warn({ url: where, status: response.status, attempt, waitMs: delay }, 'bulk export: kick-off retried');
    await wait(delay);
  }
}

async function waitForManifest(
  input: BulkExportInput,
  base: URL,
  statusUrl: URL,
  wait: (ms: number) => Promise<void>,
  now: () => Date,
): Promise<z.infer<typeof Manifest>> {
  const maxWaitMs = input.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const where = loggableUrl(statusUrl);
  const startedAt = now().getTime();
  let backoff = FIRST_BACKOFF_MS;
  let transientInARow = 0;
  for (let polls = 1; ; polls++) {
    const response = await withFreshTokenOn401(input.tokens, (token) =>
      input.egress.request({
        url: statusUrl,
        headers: { accept: 'application/json', authorization: `Bearer ${token}` },
        target: 'operator',
        purpose: 'emr',
        maxBodyBytes: MAX_MANIFEST_BYTES,
        timeoutMs: STATUS_TIMEOUT_MS,
      }),
    );
    if (response.status === 200) {
      let manifest: z.infer<typeof Manifest> | undefined;
      try {
        manifest = Manifest.safeParse(JSON.parse(response.text())).data;
      } catch (error) {
        throw egressError('emr', { reason: 'invalid-body', url: where, problem: 'manifest not JSON' }, error);
      }
      if (!manifest) throw egressError('emr', { reason: 'invalid-body', url: where, problem: 'not a manifest' });
      for (const item of [...manifest.output, ...(manifest.error ?? []), ...(manifest.deleted ?? [])])
        sameOrigin(item.url, statusUrl, base, 'file');
      return manifest;
    }
    // A failed poll is not a failed export when the EHR says the failure is transient: poll again later.
    const transient =
      response.status !== 202 && response.status !== 429 && isTransientOutcome(response.status, response.text());
    if (response.status !== 202 && response.status !== 429 && !transient) {
      throw egressError('emr', { reason: 'status', url: where, status: response.status });
    }
    if (transient) {
      transientInARow += 1;
      input.log?.warn({ url: where, status: response.status, polls, transientInARow }, 'bulk export: transient error');
      if (transientInARow > MAX_TRANSIENT_IN_A_ROW) {
        throw egressError('emr', { reason: 'status', url: where, status: response.status, transientInARow });
      }
    } else {
      transientInARow = 0;
      const progress = response.headers.get('x-progress');
      input.onProgress?.({ phase: 'exporting', polls, ...(progress && { serverProgress: cleanProgress(progress) }) });
    }
    const asked = parseRetryAfter(response.headers.get('retry-after'), now());
    const delay = clampWait(asked ?? backoff);
    if (asked === null || transient) backoff = Math.min(MAX_BACKOFF_MS, Math.round(backoff * 1.5));
    const elapsed = now().getTime() - startedAt;
    if (elapsed + delay > maxWaitMs) {
      throw egressError('emr', { reason: 'timeout', url: where, phase: 'export', polls, waitedMs: elapsed });
    }
    await wait(delay);
  }
}

/** A wait the server asked for (or our backoff), within the ruled bounds. */
function clampWait(ms: number): number {
  return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, ms));
}

/**
 * Whether an error answer is an OperationOutcome saying the failure is transient (the Bulk Data IG: "a server
 * SHOULD use a transient code from the IssueType valueset" for a polling failure that does not fail the export).
 */
function isTransientOutcome(status: number, text: string): boolean {
  if (status < 400) return false;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  const issues = OperationOutcome.safeParse(value).data?.issue ?? [];
  return issues.length > 0 && issues.every((issue) => TRANSIENT_ISSUE_CODES.has(issue.code ?? ''));
}

/** Ends the pull when its signal was aborted (a cancelled job): nothing is saved and the export is DELETEd. */
function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelled();
}

function cancelled(): AppError {
  return new AppError('UNPROCESSABLE', 'The pull was cancelled; nothing was saved', {
    cause: { purpose: 'emr', reason: 'cancelled' },
  });
}

/** setTimeout as a promise that rejects (cancelled) as soon as `signal` aborts. */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Reads one OperationOutcome NDJSON file; logs every issue; answers how many are errors (error or fatal). */
async function readErrorFile(
  input: BulkExportInput,
  base: URL,
  item: z.infer<typeof FileItem>,
  withToken: boolean,
): Promise<number> {
  let failed = 0;
  await streamLines(input, base, item, withToken, MAX_ERROR_FILE_BYTES, async (value, where) => {
    const outcome = OperationOutcome.safeParse(value).data;
    if (!outcome) {
      // Not an OperationOutcome: unreadable, so it cannot be shown harmless.
      failed += 1;
      input.log?.warn({ url: where }, 'bulk export: an error file line is not an OperationOutcome');
      return;
    }
    for (const issue of outcome.issue ?? []) {
      const severity = issue.severity ?? 'error';
      if (severity === 'error' || severity === 'fatal') failed += 1;
      const codes = issue.details?.coding?.map((c) => c.code).filter(Boolean);
      input.log?.warn(
        { url: where, severity, code: issue.code, ...(codes?.length && { details: codes }) },
        'bulk export: the EMR reported an issue',
      );
    }
  });
  return failed;
}

async function readOutputFile(
  input: BulkExportInput,
  base: URL,
  item: z.infer<typeof FileItem>,
  withToken: boolean,
): Promise<void> {
  await streamLines(input, base, item, withToken, MAX_FILE_BYTES, (value, _where, line) =>
    input.onResource(value, line),
  );
}

/** Reads one `deleted` file: transaction Bundles of `DELETE Type/id` entries; hands each requested type's on. */
async function readDeletedFile(
  input: BulkExportInput,
  base: URL,
  item: z.infer<typeof FileItem>,
  withToken: boolean,
  wanted: Set<string>,
): Promise<void> {
  await streamLines(input, base, item, withToken, MAX_FILE_BYTES, async (value, where) => {
    const bundle = DeletionBundle.safeParse(value).data;
    if (!bundle) throw invalidResource({ url: where, problem: 'deleted line is not a Bundle' }, undefined);
    for (const entry of bundle.entry ?? []) {
      const request = entry.request;
      if (!request || request.method.toUpperCase() !== 'DELETE') {
        throw invalidResource({ url: where, problem: 'deleted entry is not a DELETE' }, request?.method);
      }
      const relative = request.url.startsWith(`${base.href}/`) ? request.url.slice(base.href.length + 1) : request.url;
      const match = DELETED_URL.exec(relative);
      if (!match) throw invalidResource({ url: where, problem: 'deleted entry url is not Type/id' }, undefined);
      if (!wanted.has(match[1]!)) continue;
      await input.onDeleted?.({ resourceType: match[1]!, id: match[2]! });
    }
  });
}

async function streamLines(
  input: BulkExportInput,
  base: URL,
  item: z.infer<typeof FileItem>,
  withToken: boolean,
  maxBodyBytes: number,
  onLine: (value: unknown, where: string, line: string) => Promise<void>,
): Promise<void> {
  const url = new URL(item.url);
  const where = loggableUrl(url);
  const open = (token: string | null) =>
    input.egress.open({
      url,
      headers: { accept: 'application/fhir+ndjson', ...(token && { authorization: `Bearer ${token}` }) },
      target: 'operator',
      purpose: 'emr',
      maxBodyBytes,
      timeoutMs: FILE_TIMEOUT_MS,
    });
  const stream: EgressStream = withToken
    ? await withFreshTokenOn401(input.tokens, open, (s) => s.cancel())
    : await open(null);
  if (stream.status !== 200) {
    stream.cancel();
    throw egressError('emr', { reason: 'status', url: where, status: stream.status });
  }
  let lineNumber = 0;
  try {
    for await (const line of ndjsonLines(stream.chunks, { maxLineBytes: MAX_LINE_BYTES })) {
      lineNumber += 1;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        // A line cut short (a truncated file) lands here: the whole pull fails, nothing is saved.
        throw invalidResource({ url: where, line: lineNumber, problem: 'NDJSON line is not JSON' }, error);
      }
      await onLine(value, where, line);
    }
  } catch (error) {
    if (error instanceof NdjsonLineTooLong) {
      throw invalidResource({ url: where, line: lineNumber + 1, problem: 'NDJSON line too long' }, error);
    }
    throw error;
  } finally {
    stream.cancel();
  }
}

async function deleteJob(input: BulkExportInput, statusUrl: URL): Promise<void> {
  try {
    const response = await withFreshTokenOn401(input.tokens, (token) =>
      input.egress.request({
        url: statusUrl,
        method: 'DELETE',
        headers: { accept: 'application/fhir+json', authorization: `Bearer ${token}` },
        target: 'operator',
        purpose: 'emr',
        maxBodyBytes: MAX_SMALL_BODY_BYTES,
        timeoutMs: DELETE_TIMEOUT_MS,
      }),
    );
    if (response.status >= 300) {
      input.log?.warn({ url: loggableUrl(statusUrl), status: response.status }, 'bulk export: DELETE refused');
    }
  } catch (error) {
    input.log?.warn({ url: loggableUrl(statusUrl), error: String(error) }, 'bulk export: DELETE failed');
  }
}

/** Runs `call` with the current token; on a 401 once more with a fresh one (a token that expired mid-run). */
async function withFreshTokenOn401<T extends { status: number }>(
  tokens: BulkTokens,
  call: (token: string) => Promise<T>,
  discard?: (answer: T) => void,
): Promise<T> {
  const first = await call(await tokens.get());
  if (first.status !== 401) return first;
  discard?.(first);
  return call(await tokens.refresh());
}

/** The URL resolved against `relativeTo`, refused unless it is on the EHR's origin (where the token may go). */
function sameOrigin(value: string, relativeTo: URL, base: URL, what: 'status' | 'file'): URL {
  let url: URL;
  try {
    url = new URL(value, relativeTo);
  } catch (error) {
    throw egressError('emr', { reason: 'invalid-url', url: loggableUrl(relativeTo), what }, error);
  }
  if (url.origin !== base.origin) {
    throw egressError('emr', {
      reason: 'invalid-body',
      url: loggableUrl(relativeTo),
      problem: `${what} URL on another origin`,
    });
  }
  return url;
}

function invalidResource(cause: Record<string, unknown>, error: unknown): AppError {
  return new AppError('TRANSPORT_FAILED', 'The EMR sent a resource that is not valid FHIR; nothing was saved', {
    cause: { purpose: 'emr', reason: 'invalid-body', ...cause, error: String(error) },
  });
}

/** `_since` is a FHIR instant: a date means the start of that UTC day. */
function toInstant(since: string): string {
  return /^\d{4}-\d\d-\d\d$/.test(since) ? `${since}T00:00:00Z` : since;
}

/** X-Progress is free text from the EHR, shown on our screen: printable, short. */
function cleanProgress(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '').slice(0, MAX_PROGRESS_CHARS);
}
