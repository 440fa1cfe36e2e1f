// Kick-off of a FHIR Bulk Data export (GET or POST /api/fhir/$export and /api/fhir/Patient/$export, Bulk Data
// Access v2 "Bulk Data Kick-off Request"): validates the request strictly as the IG asks (a parameter we do not
// support, such as _typeFilter, _elements, patient or includeAssociatedData, or one we do not know, is 400 unless
// the client sent `Prefer: handling=lenient`, when it is ignored and a warning OperationOutcome is listed in the
// manifest's `error` array), records a durable BulkExportJob (status running, no
// lease yet) and its job on the bulk-export queue, and returns the status URL to poll (the edge answers 202 with it
// as Content-Location). The work happens outside the request, on the job worker of any instance
// (run-bulk-export-job.ts), so a restart picks it up again.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { AppError } from '../../errors';
import { FHIR_RESOURCE_TYPES, isFhirResourceType, RESOURCE_REGISTRY } from '../resource-registry';
import { sendJob } from '../../background/send-job';
import { BULK_EXPORT_QUEUE, type BulkExportJobData } from './run-bulk-export-job';

// Bulk Data Access: application/fhir+ndjson, with application/ndjson and ndjson as abbreviations.
const OUTPUT_FORMATS = ['application/fhir+ndjson', 'application/ndjson', 'ndjson'];
/** Unfinished exports a clinic may have at once; more is 429 (each holds a worker and a copy of the data). */
export const MAX_RUNNING_EXPORTS_PER_CLINIC = 5;
const BULK_STATUS_PATH = '/api/fhir/bulk-status';

export const BulkExportQuery = z.object({
  _outputFormat: z
    .string()
    .refine((v) => OUTPUT_FORMATS.includes(v), 'Only application/fhir+ndjson is supported')
    .optional(),
  _since: z.iso
    .datetime({ offset: true, message: '_since must be a FHIR instant, e.g. 2024-03-01T00:00:00Z' })
    .optional(),
  _type: z.string().max(500).optional(),
});
export type BulkExportQuery = z.infer<typeof BulkExportQuery>;

/**
 * The kick-off's query as the endpoint parses it: the supported parameters checked, every other one kept (not
 * stripped) so the domain can refuse or, under handling=lenient, report it.
 */
export const BulkExportKickOffQuery = BulkExportQuery.loose();
export type KickOffParameters = Record<string, unknown>;

// Bulk Data v2 parameters this server does not implement (named so the refusal can say "not supported", where an
// unknown name is "not a Bulk Data parameter").
const UNSUPPORTED_PARAMETERS = [
  '_typeFilter',
  '_elements',
  'patient',
  'includeAssociatedData',
  '_until',
  'organizeOutputBy',
  'allowPartialManifests',
];
const SUPPORTED_PARAMETERS = new Set(['_type', '_since', '_outputFormat']);

/**
 * A POST kick-off's FHIR `Parameters` body (Bulk Data v2) as kick-off parameters: each `parameter` by name with
 * its value (repeated `_type` joined with commas). Parameters without a primitive value (a `patient` reference)
 * are kept with their name, so strictness applies to them like to a query.
 */
export const BulkExportParametersBody = z.object({
  resourceType: z.literal('Parameters', { message: 'The body must be a FHIR Parameters resource' }),
  parameter: z
    .array(z.looseObject({ name: z.string().min(1).max(100) }))
    .max(100)
    .optional(),
});
export type BulkExportParametersBody = z.infer<typeof BulkExportParametersBody>;

export function readParametersBody(body: BulkExportParametersBody): KickOffParameters {
  const out: Record<string, string> = {};
  for (const parameter of body.parameter ?? []) {
    const valueKey = Object.keys(parameter).find((key) => key.startsWith('value'));
    const value = valueKey ? String(parameter[valueKey]) : '';
    out[parameter.name] = out[parameter.name] !== undefined ? `${out[parameter.name]},${value}` : value;
  }
  return out;
}

export type BulkExportLevel = 'system' | 'patient';

export type BulkExportStarted = { jobId: string; statusUrl: string };

export async function startBulkExport(
  deps: { db: Db; clock: Clock; config: { appUrl: string } },
  input: {
    clinicId: string;
    userId: string;
    level: BulkExportLevel;
    /** The query (GET) or the Parameters body read by readParametersBody (POST). */
    parameters: KickOffParameters;
    prefer: string | null;
    requestUrl: string;
    correlationId: string;
  },
): Promise<BulkExportStarted> {
  // The Bulk Data spec makes the asynchronous pattern mandatory for $export.
  if (!/(^|[,;\s])respond-async($|[,;\s])/.test(input.prefer ?? '')) {
    throw new AppError('VALIDATION_FAILED', 'A bulk export needs the header Prefer: respond-async', {
      issues: [{ path: 'headers.prefer', message: 'Must be respond-async' }],
    });
  }
  const { query, ignored } = checkParameters(input.parameters, input.prefer);
  // Every type the store holds: the pulled ones and each eligibility check's CoverageEligibilityRequest/Response
  // pair (issue #23), as the CapabilityStatement lists them.
  const types = query._type ? query._type.split(',').map((t) => t.trim()) : [...FHIR_RESOURCE_TYPES];
  const unknown = types.filter((t) => !isFhirResourceType(t));
  if (unknown.length || types.length === 0) {
    throw new AppError('VALIDATION_FAILED', 'The export names a resource type this server does not hold', {
      issues: [{ path: 'query._type', message: `Supported types: ${FHIR_RESOURCE_TYPES.join(', ')}` }],
    });
  }
  // Patient-level export: the Patient compartment. Every registry type is in it (Patient itself, or a type
  // with a patient reference); the worker leaves out resources that do not point at a patient.
  const compartment = types.filter(
    (t) => isFhirResourceType(t) && (t === 'Patient' || RESOURCE_REGISTRY[t].patientReferencePath),
  );

  const now = deps.clock();
  const id = `bx_${randomBytes(16).toString('base64url')}`; // unguessable: it is in URLs (every use is also clinic-checked)
  await deps.db.$transaction(
    async (tx) => {
      // Count-then-insert is atomic per clinic: concurrent kick-offs (on any instance) queue on this lock, so the
      // cap holds exactly. The lock ends with the transaction.
      await tx.$executeRawUnsafe(
        'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
        `bulk-export-cap:${input.clinicId}`,
      );
      const running = await tx.bulkExportJob.count({ where: { clinicId: input.clinicId, status: 'running' } });
      if (running >= MAX_RUNNING_EXPORTS_PER_CLINIC) {
        throw new AppError(
          'RATE_LIMITED',
          `At most ${MAX_RUNNING_EXPORTS_PER_CLINIC} exports may run at once; wait for one to finish`,
          { retryAfterSeconds: 30 },
        );
      }
      await tx.bulkExportJob.create({
        data: {
          id,
          clinicId: input.clinicId,
          userId: input.userId,
          level: input.level,
          types: [...new Set(input.level === 'patient' ? compartment : types)],
          since: query._since ? new Date(query._since) : null,
          status: 'running',
          // The kick-off URL as the client addressed it, on our public origin (APP_URL), for the manifest.
          request: `${deps.config.appUrl}${new URL(input.requestUrl).pathname}${new URL(input.requestUrl).search}`,
          transactionTime: now,
          correlationId: input.correlationId,
        },
      });
      // handling=lenient: what was ignored is said in the manifest (its `error` array), not silently dropped.
      if (ignored.length) {
        await tx.bulkExportFile.create({
          data: {
            jobId: id,
            resourceType: 'OperationOutcome',
            count: 1,
            ndjson: `${JSON.stringify(ignoredOutcome(ignored))}\n`,
          },
        });
      }
      // The work itself is a job (pg-boss), keyed by the export's id, in the same transaction as the export row.
      const data: BulkExportJobData = { exportId: id, clinicId: input.clinicId, correlationId: input.correlationId };
      await sendJob(tx, BULK_EXPORT_QUEUE, data, { key: id });
    },
    { maxWait: 10_000, timeout: 10_000 },
  );
  return { jobId: id, statusUrl: `${deps.config.appUrl}${BULK_STATUS_PATH}/${id}` };
}

const prefers = (prefer: string | null, token: string) =>
  new RegExp(`(^|[,;\\s])${token}($|[,;\\s])`).test(prefer ?? '');

/** The supported parameters, checked; the others refused (400) or, under handling=lenient, listed as ignored. */
function checkParameters(
  parameters: KickOffParameters,
  prefer: string | null,
): { query: BulkExportQuery; ignored: string[] } {
  const others = Object.keys(parameters).filter((name) => !SUPPORTED_PARAMETERS.has(name));
  if (others.length && !prefers(prefer, 'handling=lenient')) {
    throw new AppError('VALIDATION_FAILED', 'The export asks for a parameter this server does not support', {
      issues: others.map((name) => ({
        path: `query.${name}`,
        message: UNSUPPORTED_PARAMETERS.includes(name)
          ? `${name} is not supported (send Prefer: handling=lenient to have it ignored)`
          : `${name} is not a Bulk Data export parameter`,
      })),
    });
  }
  const supported = Object.fromEntries(Object.entries(parameters).filter(([name]) => SUPPORTED_PARAMETERS.has(name)));
  const parsed = BulkExportQuery.safeParse(supported);
  if (!parsed.success) {
    throw new AppError('VALIDATION_FAILED', 'The request query is not valid', {
      issues: parsed.error.issues.map((issue) => ({ path: `query.${issue.path.join('.')}`, message: issue.message })),
    });
  }
  return { query: parsed.data, ignored: others };
}

function ignoredOutcome(ignored: string[]) {
  return {
    resourceType: 'OperationOutcome',
    issue: ignored.map((name) => ({
      severity: 'warning',
      code: 'not-supported',
      details: { text: `The parameter ${name} is not supported and was ignored (Prefer: handling=lenient)` },
      expression: [name],
    })),
  };
}
