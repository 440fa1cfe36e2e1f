// FHIR Bulk Data Access answers at the edge: the kick-off's 202 with Content-Location, the status URL's 202
// (Retry-After, X-Progress) or manifest, and the NDJSON files. The domain (lib/fhir/bulk-export) says where an
// export stands; this module says how that is sent.
import type { BulkExportStatus } from '../fhir/bulk-export/bulk-export-status';
import type { BulkExportStarted } from '../fhir/bulk-export/start-bulk-export';
import { FHIR_NDJSON } from '../fhir/fhir-json';
import { informationOutcome } from '../fhir/operation-outcome';
import type { RenderContext } from './route';
import { fhirResponse } from './fhir-response';
import { json, type ErrorBody } from './responses';

/** Kick-off: 202, an informational OperationOutcome, and the status URL to poll as Content-Location. */
export function renderBulkExportStarted(started: BulkExportStarted): Response {
  return fhirResponse(informationOutcome('The export has started; poll the Content-Location URL for its status'), {
    status: 202,
    headers: { 'content-location': started.statusUrl },
  });
}

/**
 * Status (SPEC Events 9): while running, 202 with Retry-After, X-Progress (queued or exporting) and a body in our
 * error-body shape (IN_PROGRESS is one of our codes) with jobId and retryAfterSeconds beside it; then 200 with the
 * manifest.
 */
export function renderBulkExportStatus(status: BulkExportStatus, { correlationId }: RenderContext): Response {
  if (status.state === 'finished') return json(status.manifest);
  const body: ErrorBody & { jobId: string; retryAfterSeconds: number } = {
    code: 'IN_PROGRESS',
    message: 'The export is still running',
    correlationId,
    jobId: status.jobId,
    retryAfterSeconds: status.retryAfterSeconds,
  };
  return json(body, {
    status: 202,
    headers: { 'retry-after': String(status.retryAfterSeconds), 'x-progress': status.progress },
  });
}

/** One output or error file, as the Bulk Data spec types it. */
export function renderBulkExportFile(ndjson: string): Response {
  return new Response(ndjson, { headers: { 'content-type': FHIR_NDJSON, 'cache-control': 'no-store' } });
}
