// POST /api/emr-sync/connections/{id}/pull: one "Pull now" for every kind of connection. A smart-backend connection
// queues the export of its clinic's bound Group as a job (pull-job.ts: an export may take hours), answered 202 with
// the run to follow; a browser
// connection pulls the patient compartment it was authorized for (pull-browser-connection.ts). The connection must
// be the caller's clinic's (another clinic's is 404, like a missing one).
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { FhirStore } from '../fhir/fhir-store';
import type { Egress } from '../outbound/egress';
import { getClinicConnection } from './connection-view';
import { BROWSER_VENDORS, pullBrowserConnection } from './pull-browser-connection';
import { queueSmartBackendPull, type QueuedPull } from './pull-job';
import type { PullResult } from './run-pull';

export const ConnectionPullQuery = z.object({
  since: z
    .union([z.iso.datetime({ offset: true }), z.iso.date()], {
      message: 'since must be an ISO-8601 date or instant with a zone',
    })
    .optional(),
});
export type ConnectionPullQuery = z.infer<typeof ConnectionPullQuery>;

export async function pullConnection(
  deps: { db: Db; clock: Clock; config: Config; fhirStore: FhirStore; egress: Egress },
  input: ConnectionPullQuery & { connectionId: string; clinicId: string; userId: string; correlationId: string },
): Promise<PullResult | QueuedPull> {
  const connection = await getClinicConnection(deps.db, { clinicId: input.clinicId, id: input.connectionId });
  if (connection.vendor === 'smart-backend') {
    return queueSmartBackendPull(deps, {
      connectionId: connection.id,
      clinicId: input.clinicId,
      correlationId: input.correlationId,
      ...(input.since && { since: input.since }),
    });
  }
  if (BROWSER_VENDORS.includes(connection.vendor)) {
    return pullBrowserConnection(deps, connection, {
      userId: input.userId,
      correlationId: input.correlationId,
      ...(input.since && { since: input.since }),
    });
  }
  throw new AppError('UNPROCESSABLE', 'A partner API connection pulls by date: use the partner pull with a date range');
}
