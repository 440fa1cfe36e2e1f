// The shared tail of every EMR pull (SMART Backend Services, partner API). The SyncRun row is written first, as
// `running`, so the screen can follow it (GET /api/emr-sync/runs/{id}); the reader streams resources into `add`,
// which validates each one and stages it (stage-resources.ts: the population is never held in memory with the
// embedded store); at the end ONE commit makes everything visible, and the run becomes `succeeded` with its
// counts, or `failed` with the error code and its client-safe message, the staged rows deleted and the store as
// it was. A pull queued as a job (pull-job.ts) takes its queued row instead of writing one, and one cancelled by
// the user ends `cancelled` (the reader saw the signal, nothing was saved). The run's cursor is `nextSince`: the reader's own instant when it has one (a Bulk Data manifest's
// transactionTime, the EHR's clock), else the instant the pull started. Pass it as `since` next time to read only
// what changed (STYLE: resumable from a stored cursor). Deletions a reader reports (a Bulk Data manifest's `deleted`)
// are applied in that same commit to this source's resources only, and counted per type as `deleted`. A finished
// run's progress keeps no EHR progress text.
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Db, Prisma } from '../db';
import { AppError, isAppError } from '../errors';
import type { FhirStore, SourceDeletion, UpsertCounts } from '../fhir/fhir-store';
import { SYNC_RESOURCE_TYPES, type FhirResource, type SyncResourceType } from '../fhir/types';
import { recordEvent } from '../events/record-event';
import { openPullSink } from './stage-resources';
import type { RunProgress } from './sync-run-view';

export const UpsertedCounts = z.object(
  Object.fromEntries(SYNC_RESOURCE_TYPES.map((t) => [t, z.number().int()])) as Record<SyncResourceType, z.ZodNumber>,
);

export const PullResult = z.object({
  ok: z.literal(true),
  /** Per resource type: how many resources the pull wrote (new, changed or unchanged). */
  upserted: UpsertedCounts,
  fhirStore: z.string(),
  syncRunId: z.string(),
  /** Per resource type: how many stored resources of this source the pull removed (the EHR deleted them). */
  deleted: UpsertedCounts,
  /** Give this as `since` on the next pull to read only what changed after this one started. */
  nextSince: z.string(),
});
export type PullResult = z.infer<typeof PullResult>;

type PullDeps = { db: Db; clock: Clock; fhirStore: FhirStore };
type PullRun = {
  clinicId: string;
  connectionId: string | null;
  kind: 'smart-backend' | 'partner-api' | 'browser-oauth';
  correlationId: string;
  /** The server the resources come from: their stored identity (DECISIONS "Trust boundaries"). */
  sourceBaseUrl: string;
  /** A run queued for a job: taken from `queued` to `running` (refused as cancelled when it is no longer queued). */
  syncRunId?: string;
  /** Aborted when the user cancels the run: a failure then records the run as `cancelled`. */
  cancelled?: AbortSignal;
};

/** What a reader is handed: where resources go, and how it reports where it is. */
export type PullContext = {
  /**
   * Validates and stages one resource; throws AppError TRANSPORT_FAILED for one that is not valid FHIR. `json`, the
   * text it was parsed from, lets the control-character check look at the text once instead of walking the value.
   */
  add(resource: unknown, from?: { json: string }): Promise<void>;
  /** Records a resource the source deleted (type and id on the source); applied at the commit. */
  remove(deleted: SourceDeletion): void;
  progress(update: Partial<Omit<RunProgress, 'resources'>>): void;
};
type Read = (pull: PullContext) => Promise<{ nextSince?: string } | void>;

// FHIR R4 strings exclude control characters other than tab, CR and LF; PostgreSQL's jsonb cannot hold U+0000.
// A resource carrying one is not valid FHIR: refused as a bad answer from the EMR, before anything is written.
const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
// JSON text cannot carry a raw control character inside a string (JSON.parse refuses it), only as a \u00XX escape:
// text without `\u000`/`\u001` parses to a value without one, and the walk is skipped.
const POSSIBLE_CONTROL_ESCAPE = /\\u00[01]/i;
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;
const SYNC_TYPES = new Set<string>(SYNC_RESOURCE_TYPES);
// The screen polls; the row is rewritten at most this often while a pull runs (and at every phase change).
const PROGRESS_EVERY_MS = 1000;

function hasForbiddenControl(value: unknown): boolean {
  if (typeof value === 'string') return FORBIDDEN_CONTROL.test(value);
  if (Array.isArray(value)) return value.some(hasForbiddenControl);
  if (value && typeof value === 'object')
    return Object.entries(value).some(([k, v]) => FORBIDDEN_CONTROL.test(k) || hasForbiddenControl(v));
  return false;
}

/** One of the six sync types with a FHIR id and no forbidden control character; anything else is refused. */
function validResource(value: unknown, json?: string): FhirResource {
  const resource = value as Partial<FhirResource> | null;
  const ok =
    !!resource &&
    typeof resource === 'object' &&
    !Array.isArray(resource) &&
    typeof resource.resourceType === 'string' &&
    SYNC_TYPES.has(resource.resourceType) &&
    typeof resource.id === 'string' &&
    FHIR_ID.test(resource.id) &&
    (resource.meta === undefined || (typeof resource.meta === 'object' && !Array.isArray(resource.meta))) &&
    ((json !== undefined && !POSSIBLE_CONTROL_ESCAPE.test(json)) || !hasForbiddenControl(resource));
  if (!ok) throw new AppError('TRANSPORT_FAILED', 'The EMR sent a resource that is not valid FHIR; nothing was saved');
  return resource as FhirResource;
}

export async function runPull(deps: PullDeps, run: PullRun, read: Read): Promise<PullResult> {
  const startedAt = deps.clock();
  const progress: RunProgress = { phase: 'starting', files: 0, filesDone: 0, resources: 0 };
  const syncRunId = await openRun(deps, run, startedAt, progress);
  // Progress writes are chained (never two at once, never out of order) and never fail the pull.
  let written = Promise.resolve();
  let lastWrite = 0;
  const saveProgress = (force: boolean) => {
    const now = Date.now();
    if (!force && now - lastWrite < PROGRESS_EVERY_MS) return;
    lastWrite = now;
    const snapshot = { ...progress };
    written = written.then(() =>
      deps.db.syncRun
        .update({ where: { id: syncRunId }, data: { progress: snapshot } })
        .then(() => undefined)
        .catch(() => undefined),
    );
  };

  const sink = openPullSink(deps, { clinicId: run.clinicId, syncRunId, sourceBaseUrl: run.sourceBaseUrl });
  const deletes: SourceDeletion[] = [];
  try {
    const answer = await read({
      async add(value, from) {
        await sink.add(validResource(value, from?.json));
        progress.resources += 1;
        saveProgress(false);
      },
      remove(deleted) {
        if (!SYNC_TYPES.has(deleted.resourceType) || !FHIR_ID.test(deleted.id)) {
          throw new AppError('TRANSPORT_FAILED', 'The EMR sent a resource that is not valid FHIR; nothing was saved');
        }
        deletes.push(deleted);
      },
      progress(update) {
        const phaseChanged = update.phase !== undefined && update.phase !== progress.phase;
        Object.assign(progress, update);
        saveProgress(phaseChanged);
      },
    });
    progress.phase = 'committing';
    saveProgress(true);
    const result = await sink.commit(deletes);
    const upserted = Object.fromEntries(
      SYNC_RESOURCE_TYPES.map((type) => {
        const counts = result.byType[type];
        return [type, counts ? counts.created + counts.updated + counts.unchanged : 0];
      }),
    ) as PullResult['upserted'];
    const deleted = Object.fromEntries(
      SYNC_RESOURCE_TYPES.map((type) => [type, result.deleted?.[type] ?? 0]),
    ) as PullResult['deleted'];
    // Per type on the run: created, updated, unchanged and deleted.
    const counts: Record<string, UpsertCounts & { deleted?: number }> = { ...result.byType };
    for (const [type, n] of Object.entries(deleted)) {
      if (n > 0) counts[type] = { ...(counts[type] ?? { created: 0, updated: 0, unchanged: 0 }), deleted: n };
    }
    const nextSince = answer?.nextSince ?? startedAt.toISOString();
    progress.phase = 'done';
    delete progress.serverProgress;
    await written;
    await deps.db.$transaction(async (tx) => {
      await tx.syncRun.update({
        where: { id: syncRunId },
        data: { status: 'succeeded', cursor: nextSince, counts, progress, finishedAt: deps.clock() },
      });
      await recordPullEvent(tx, run, syncRunId, { counts: upserted }, deps.clock());
    });
    return { ok: true, upserted, deleted, fhirStore: deps.fhirStore.name, syncRunId, nextSince };
  } catch (error) {
    await sink.discard();
    await written;
    const code = isAppError(error) ? error.code : 'INTERNAL';
    const cancelled = run.cancelled?.aborted === true;
    // For the record only; the error is what the caller gets. A database that is down cannot take this either.
    const message = isAppError(error) ? error.message : 'The pull failed; nothing was saved';
    await deps.db
      .$transaction(async (tx) => {
        await tx.syncRun.update({
          where: { id: syncRunId },
          data: {
            status: cancelled ? 'cancelled' : 'failed',
            counts: { error: code },
            error: message,
            progress: { ...progress, phase: cancelled ? 'cancelled' : 'failed', serverProgress: undefined },
            finishedAt: deps.clock(),
          },
        });
        // A pull the user cancelled did not fail: no event.
        if (!cancelled) await recordPullEvent(tx, run, syncRunId, { error: { code, message } }, deps.clock());
      })
      .catch(() => undefined);
    throw error;
  }
}

/** The run's row: a new one, or the queued one a job was given (moved to `running`; gone or cancelled: refused). */
async function openRun(deps: PullDeps, run: PullRun, startedAt: Date, progress: RunProgress): Promise<string> {
  let taken: number;
  try {
    if (!run.syncRunId) {
      const created = await deps.db.syncRun.create({
        data: {
          clinicId: run.clinicId,
          connectionId: run.connectionId,
          kind: run.kind,
          status: 'running',
          progress,
          correlationId: run.correlationId,
          startedAt,
        },
        select: { id: true },
      });
      return created.id;
    }
    ({ count: taken } = await deps.db.syncRun.updateMany({
      where: { id: run.syncRunId, clinicId: run.clinicId, status: 'queued' },
      data: { status: 'running', progress, startedAt },
    }));
  } catch (cause) {
    throw new AppError('DEPENDENCY_UNAVAILABLE', 'The FHIR store is unavailable; nothing was saved', { cause });
  }
  if (taken === 0) throw new AppError('UNPROCESSABLE', 'The pull was cancelled; nothing was saved');
  return run.syncRunId;
}

/** emr.pull.completed or emr.pull.failed (DECISIONS "Events out"), in the transaction that finishes the run. */
function recordPullEvent(
  tx: Prisma.TransactionClient,
  run: PullRun,
  runId: string,
  outcome: { counts: Record<string, number> } | { error: { code: string; message: string } },
  at: Date,
) {
  const about = { runId, connectionId: run.connectionId ?? null, kind: run.kind };
  const common = {
    clinicId: run.clinicId,
    objectId: run.connectionId ?? `${run.kind}:${run.clinicId}`,
    correlationId: run.correlationId,
    at,
  };
  return 'counts' in outcome
    ? recordEvent(tx, { ...common, type: 'emr.pull.completed', data: { ...about, counts: outcome.counts } })
    : recordEvent(tx, { ...common, type: 'emr.pull.failed', data: about, errors: [outcome.error] });
}
