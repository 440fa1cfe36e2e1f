// A FHIR Bulk Data Access (IG v2) client for the SMART backend pull: kick-off, status polling, the manifest, the
// NDJSON files streamed line by line, and the DELETE that releases the job. Does not decide what a resource may
// be nor where it goes (the caller's onResource does), and never requests a token itself (the caller's tokens do).
//
// - Kick-off: `GET {base}/Group/{id}/$export` (`{base}/$export` for the "*" binding) with `_type`, `_since`,
//   `Prefer: respond-async` and `Accept: application/fhir+json`; 202 with an absolute `Content-Location`.
// - Status: polled honouring `Retry-After` (seconds or an HTTP date; also on 429), else a growing backoff, each wait
//   clamped, under one total wait cap; `X-Progress` is reported. 200 is the manifest.
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
  onProgress?(progress: BulkProgress): void;
  log?: Log;
  /** Injected by tests. */
  sleep?(ms: number): Promise<void>;
  now?(): Date;
  /** Total time spent waiting on the status endpoint before the export is abandoned. Default 30 minutes. */
  maxWaitMs?: number;
};

export type BulkExportResult = { transactionTime: string | null; files: number; errorFiles: number };

const KICK_OFF_TIMEOUT_MS = 30_000;
const STATUS_TIMEOUT_MS = 30_000;
const FILE_TIMEOUT_MS = 30 * 60_000;
const DELETE_TIMEOUT_MS = 10_000;
const MAX_SMALL_BODY_BYTES = MIB;
const MAX_MANIFEST_BYTES = 64 * MIB;
const MAX_FILE_BYTES = 8 * 1024 * MIB;
const MAX_ERROR_FILE_BYTES = 64 * MIB;
const MAX_LINE_BYTES = 16 * MIB;
const DEFAULT_MAX_WAIT_MS = 30 * 60_000;
// Waits between polls: the server's Retry-After within these bounds, else FIRST_BACKOFF growing by half each time.
const MIN_WAIT_MS = 200;
const MAX_WAIT_MS = 120_000;
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;
const MAX_PROGRESS_CHARS = 200;

const FileItem = z.object({ type: z.string(), url: z.string(), count: z.number().optional() });
const Manifest = z.object({
  transactionTime: z.string().optional(),
  requiresAccessToken: z.boolean().optional(),
  output: z.array(FileItem),
  error: z.array(FileItem).optional(),
});
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
  const sleep = input.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = input.now ?? (() => new Date());
  let statusUrl: URL | null = null;
  try {
    statusUrl = await kickOff(input, base);
    const manifest = await waitForManifest(input, base, statusUrl, sleep, now);
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
      await readOutputFile(input, base, item, withToken);
      input.onProgress?.({ phase: 'downloading', files: files.length, filesDone: done + 1 });
    }
    return { transactionTime: manifest.transactionTime ?? null, files: files.length, errorFiles: errorFiles.length };
  } finally {
    if (statusUrl) await deleteJob(input, statusUrl);
  }
}

async function kickOff(input: BulkExportInput, base: URL): Promise<URL> {
  const path = input.groupId === '*' ? '$export' : `Group/${encodeURIComponent(input.groupId)}/$export`;
  const url = new URL(`${base.href}/${path}`);
  url.searchParams.set('_type', input.types.join(','));
  if (input.since) url.searchParams.set('_since', toInstant(input.since));
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
  const where = loggableUrl(url);
  if (response.status !== 202) throw egressError('emr', { reason: 'status', url: where, status: response.status });
  const location = response.headers.get('content-location');
  if (!location) throw egressError('emr', { reason: 'invalid-body', url: where, problem: 'no Content-Location' });
  return sameOrigin(location, url, base, 'status');
}

async function waitForManifest(
  input: BulkExportInput,
  base: URL,
  statusUrl: URL,
  sleep: (ms: number) => Promise<void>,
  now: () => Date,
): Promise<z.infer<typeof Manifest>> {
  const maxWaitMs = input.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const where = loggableUrl(statusUrl);
  let waited = 0;
  let backoff = FIRST_BACKOFF_MS;
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
      for (const item of [...manifest.output, ...(manifest.error ?? [])]) sameOrigin(item.url, statusUrl, base, 'file');
      return manifest;
    }
    if (response.status !== 202 && response.status !== 429) {
      throw egressError('emr', { reason: 'status', url: where, status: response.status });
    }
    const progress = response.headers.get('x-progress');
    input.onProgress?.({ phase: 'exporting', polls, ...(progress && { serverProgress: cleanProgress(progress) }) });
    const asked = parseRetryAfter(response.headers.get('retry-after'), now());
    const wait = Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, asked ?? backoff));
    if (asked === null) backoff = Math.min(MAX_BACKOFF_MS, Math.round(backoff * 1.5));
    if (waited + wait > maxWaitMs) {
      throw egressError('emr', { reason: 'timeout', url: where, phase: 'export', polls, waitedMs: waited });
    }
    await sleep(wait);
    waited += wait;
  }
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
