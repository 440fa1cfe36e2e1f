// The shared tail of every EMR pull (SMART Backend Services, partner API): resources read in full first, then
// written to the FHIR store in ONE upsert (all or nothing), and the run recorded as a SyncRun tagged with the
// correlation id. The run's cursor is the instant the pull started: pass it as `since` next time to read only
// what changed (STYLE: resumable from a stored cursor).
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Db } from '../db';
import { AppError, isAppError } from '../errors';
import type { FhirStore } from '../fhir/fhir-store';
import { SYNC_RESOURCE_TYPES, type FhirResource, type SyncResourceType } from '../fhir/types';

export const UpsertedCounts = z.object(
  Object.fromEntries(SYNC_RESOURCE_TYPES.map((t) => [t, z.number().int()])) as Record<SyncResourceType, z.ZodNumber>,
);

export const PullResult = z.object({
  ok: z.literal(true),
  /** Per resource type: how many resources the pull wrote (new, changed or unchanged). */
  upserted: UpsertedCounts,
  fhirStore: z.string(),
  syncRunId: z.string(),
  /** Give this as `since` on the next pull to read only what changed after this one started. */
  nextSince: z.string(),
});
export type PullResult = z.infer<typeof PullResult>;

type PullDeps = { db: Db; clock: Clock; fhirStore: FhirStore };
type PullRun = {
  clinicId: string;
  connectionId: string | null;
  kind: 'smart-backend' | 'partner-api';
  correlationId: string;
};
type Pulled = { resources: Record<SyncResourceType, FhirResource[]>; sourceBaseUrl: string };

// FHIR R4 strings exclude control characters other than tab, CR and LF; PostgreSQL's jsonb cannot hold U+0000.
// A resource carrying one is not valid FHIR: refused as a bad answer from the EMR, before anything is written.
const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

function hasForbiddenControl(value: unknown): boolean {
  if (typeof value === 'string') return FORBIDDEN_CONTROL.test(value);
  if (Array.isArray(value)) return value.some(hasForbiddenControl);
  if (value && typeof value === 'object')
    return Object.entries(value).some(([k, v]) => FORBIDDEN_CONTROL.test(k) || hasForbiddenControl(v));
  return false;
}

export async function runPull(deps: PullDeps, run: PullRun, read: () => Promise<Pulled>): Promise<PullResult> {
  const startedAt = deps.clock();
  try {
    const { resources, sourceBaseUrl } = await read();
    const all = SYNC_RESOURCE_TYPES.flatMap((type) => resources[type]);
    if (all.some(hasForbiddenControl)) {
      throw new AppError('TRANSPORT_FAILED', 'The EMR sent a resource that is not valid FHIR; nothing was saved');
    }
    const written = await deps.fhirStore.upsertMany(run.clinicId, all, { sourceBaseUrl });
    const upserted = Object.fromEntries(
      SYNC_RESOURCE_TYPES.map((type) => {
        const counts = written.byType[type];
        return [type, counts ? counts.created + counts.updated + counts.unchanged : 0];
      }),
    ) as PullResult['upserted'];
    const syncRun = await deps.db.syncRun.create({
      data: {
        clinicId: run.clinicId,
        connectionId: run.connectionId,
        kind: run.kind,
        status: 'succeeded',
        cursor: startedAt.toISOString(),
        counts: written.byType,
        correlationId: run.correlationId,
        startedAt,
        finishedAt: deps.clock(),
      },
    });
    return {
      ok: true,
      upserted,
      fhirStore: deps.fhirStore.name,
      syncRunId: syncRun.id,
      nextSince: startedAt.toISOString(),
    };
  } catch (error) {
    if (isAppError(error)) {
      // For the record only; the error is what the caller gets. A database that is down cannot take this either.
      await deps.db.syncRun
        .create({
          data: {
            clinicId: run.clinicId,
            connectionId: run.connectionId,
            kind: run.kind,
            status: 'failed',
            counts: { error: error.code },
            correlationId: run.correlationId,
            startedAt,
            finishedAt: deps.clock(),
          },
        })
        .catch(() => undefined);
    }
    throw error;
  }
}
