// Group-level FHIR Bulk Data export on the sandbox EHR (Bulk Data Access IG v2): kick-off answers 202 with the
// status URL (Content-Location); the status is 202 with Retry-After for its first second (so clients exercise
// polling), then the manifest with one NDJSON file per type (requiresAccessToken: true); DELETE cancels. The job
// is a sealed handle carrying its own parameters, so any request can answer it; cancellation is per process.
import { z } from 'zod';
import { AppError } from '../errors';
import { SYNC_RESOURCE_TYPES, type FhirResource } from '../fhir/types';
import {
  findGroup,
  requireAccessToken,
  requireBackendToken,
  requireScopeFor,
  type SandboxDeps,
} from './sandbox-access';
import { requireSandbox, sandboxEhrUrls } from './sandbox-ehr-urls';
import {
  BULK_JOB_SECONDS,
  isJobDeleted,
  markJobDeleted,
  newJti,
  openValue,
  sealValue,
  secondsFrom,
  type BulkJob,
} from './sandbox-tokens';
import type { ClinicRecords } from './synthetic-records';

export const SandboxJobParams = z.object({ job: z.string().min(1).max(4096) });
export const SandboxFileParams = SandboxJobParams.extend({ type: z.string().min(1).max(64) });

const SUPPORTED = new Set(['_type', '_since', '_outputFormat']);
const OUTPUT_FORMATS = ['application/fhir+ndjson', 'application/ndjson', 'ndjson'];
const PROCESSING_MS = 1000;

export type SandboxExportStarted = { statusUrl: string };
export type SandboxExportStatus =
  | { state: 'in-progress'; retryAfterSeconds: number; progress: string }
  | { state: 'finished'; manifest: Record<string, unknown> };

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { issues: [{ path, message }] });

export async function startSandboxExport(
  deps: SandboxDeps,
  input: {
    groupId: string;
    query: Record<string, string | string[]>;
    prefer: string | null;
    authorization: string | null;
    requestUrl: string;
  },
): Promise<SandboxExportStarted> {
  requireSandbox(deps.config);
  const token = requireAccessToken(deps, input.authorization);
  requireBackendToken(token);
  if (!/(^|[,;\s])respond-async($|[,;\s])/.test(input.prefer ?? ''))
    throw invalid('headers.prefer', 'A bulk export needs Prefer: respond-async');
  const lenient = /(^|[,;\s])handling=lenient($|[,;\s])/.test(input.prefer ?? '');
  const unsupported = Object.keys(input.query).filter((name) => !SUPPORTED.has(name));
  if (unsupported.length && !lenient) throw invalid(`query.${unsupported[0]}`, `${unsupported[0]} is not supported`);
  const records = await findGroup(deps.db, input.groupId);
  if (!records) throw new AppError('NOT_FOUND', 'No such Group');

  const one = (name: string) => {
    const value = input.query[name];
    return Array.isArray(value) ? value.join(',') : value;
  };
  const types = one('_type')
    ? one('_type')!
        .split(',')
        .map((t) => t.trim())
    : [...SYNC_RESOURCE_TYPES];
  const unknown = types.filter((t) => !(SYNC_RESOURCE_TYPES as readonly string[]).includes(t));
  if (unknown.length) throw invalid('query._type', `This EHR does not export ${unknown.join(', ')}`);
  for (const type of types) requireScopeFor(token, type);
  const format = one('_outputFormat');
  if (format && !OUTPUT_FORMATS.includes(format)) throw invalid('query._outputFormat', 'Only application/fhir+ndjson');
  const since = one('_since');
  if (since && Number.isNaN(Date.parse(since))) throw invalid('query._since', '_since must be a FHIR instant');

  const job: BulkJob = {
    t: 'job',
    jti: newJti(),
    groupId: records.groupId,
    types,
    ...(since && { since }),
    transactionTime: deps.clock().toISOString(),
    request: input.requestUrl,
    ignored: unsupported,
    exp: secondsFrom(deps.clock, BULK_JOB_SECONDS),
  };
  return { statusUrl: `${sandboxEhrUrls(deps.config.appUrl).bulkStatusUrl}/${sealValue(deps.config, job)}` };
}

async function openJob(deps: SandboxDeps, handle: string, authorization: string | null) {
  requireSandbox(deps.config);
  const token = requireAccessToken(deps, authorization);
  requireBackendToken(token);
  const job = openValue(deps.config, deps.clock, 'job', handle);
  if (!job || isJobDeleted(job.jti)) throw new AppError('NOT_FOUND', 'No such export');
  const records = await findGroup(deps.db, job.groupId);
  if (!records) throw new AppError('NOT_FOUND', 'No such export');
  return { job, records };
}

export async function sandboxExportStatus(
  deps: SandboxDeps,
  input: { job: string; authorization: string | null },
): Promise<SandboxExportStatus> {
  const { job, records } = await openJob(deps, input.job, input.authorization);
  const readyAt = Date.parse(job.transactionTime) + PROCESSING_MS;
  if (deps.clock().getTime() < readyAt) return { state: 'in-progress', retryAfterSeconds: 1, progress: 'exporting' };
  const filesUrl = sandboxEhrUrls(deps.config.appUrl).bulkFilesUrl;
  const output = job.types
    .map((type) => ({ type, url: `${filesUrl}/${input.job}/${type}`, count: resourcesOf(records, job, type).length }))
    .filter((file) => file.count > 0);
  return {
    state: 'finished',
    manifest: {
      transactionTime: job.transactionTime,
      request: job.request,
      requiresAccessToken: true,
      output,
      // Bulk Data v2: parameters ignored under handling=lenient are reported (a warning OperationOutcome).
      error: job.ignored.length ? [{ type: 'OperationOutcome', url: `${filesUrl}/${input.job}/OperationOutcome` }] : [],
    },
  };
}

export async function deleteSandboxExport(deps: SandboxDeps, input: { job: string; authorization: string | null }) {
  const { job } = await openJob(deps, input.job, input.authorization);
  markJobDeleted(job.jti);
}

/** One NDJSON file of a finished export. */
export async function readSandboxExportFile(
  deps: SandboxDeps,
  input: { job: string; type: string; authorization: string | null },
): Promise<string> {
  const { job, records } = await openJob(deps, input.job, input.authorization);
  if (input.type === 'OperationOutcome' && job.ignored.length) return `${JSON.stringify(ignoredOutcome(job))}\n`;
  if (!job.types.includes(input.type)) throw new AppError('NOT_FOUND', 'No such file');
  return resourcesOf(records, job, input.type)
    .map((resource) => `${JSON.stringify(resource)}\n`)
    .join('');
}

function resourcesOf(records: ClinicRecords, job: BulkJob, type: string): FhirResource[] {
  const since = job.since ? Date.parse(job.since) : undefined;
  return (records.byType[type as keyof ClinicRecords['byType']] ?? []).filter(
    (resource) => since === undefined || Date.parse(resource.meta?.lastUpdated ?? '') >= since,
  );
}

function ignoredOutcome(job: BulkJob) {
  return {
    resourceType: 'OperationOutcome',
    issue: job.ignored.map((name) => ({
      severity: 'warning',
      code: 'not-supported',
      details: { text: `The parameter ${name} is not supported and was ignored (Prefer: handling=lenient)` },
    })),
  };
}
