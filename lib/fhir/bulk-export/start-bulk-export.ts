// Kick-off of a FHIR Bulk Data export (GET /api/fhir/$export and /api/fhir/Patient/$export, Bulk Data Access
// "Bulk Data Kick-off Request"): validates the request, records a durable BulkExportJob (status running, no
// lease yet) and its job on the bulk-export queue, and returns the status URL to poll (the edge answers 202 with it
// as Content-Location). The work happens outside the request, on the job worker of any instance
// (run-bulk-export-job.ts), so a restart picks it up again.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { AppError } from '../../errors';
import { FHIR_RESOURCE_TYPES, isFhirResourceType, RESOURCE_REGISTRY } from '../resource-registry';
import { enqueueJob } from '../../jobs/enqueue-job';
import { BULK_EXPORT_QUEUE, MAX_ATTEMPTS } from './run-bulk-export-job';

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

export type BulkExportLevel = 'system' | 'patient';

export type BulkExportStarted = { jobId: string; statusUrl: string };

export async function startBulkExport(
  deps: { db: Db; clock: Clock; config: { appUrl: string } },
  input: {
    clinicId: string;
    userId: string;
    level: BulkExportLevel;
    query: BulkExportQuery;
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
  const types = input.query._type ? input.query._type.split(',').map((t) => t.trim()) : [...FHIR_RESOURCE_TYPES];
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
          since: input.query._since ? new Date(input.query._since) : null,
          status: 'running',
          // The kick-off URL as the client addressed it, on our public origin (APP_URL), for the manifest.
          request: `${deps.config.appUrl}${new URL(input.requestUrl).pathname}${new URL(input.requestUrl).search}`,
          transactionTime: now,
          correlationId: input.correlationId,
        },
      });
      // The work itself is a job (lib/jobs), keyed by the export's id, in the same transaction as the export row.
      await enqueueJob(
        tx,
        { queue: BULK_EXPORT_QUEUE, key: id, maxAttempts: MAX_ATTEMPTS, correlationId: input.correlationId },
        now,
      );
    },
    { maxWait: 10_000, timeout: 10_000 },
  );
  return { jobId: id, statusUrl: `${deps.config.appUrl}${BULK_STATUS_PATH}/${id}` };
}
