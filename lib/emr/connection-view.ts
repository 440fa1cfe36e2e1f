// What a read of an EMR connection shows: its name, status (and why it needs attention), whether the browser
// authorization can start, its latest pull, and never the client id, a secret or a token (hasClientId says a client
// id is stored). Also the 404/403 lookup rules.
import { z } from 'zod';
import { EMR_VENDOR_KINDS, type Config } from '../config';
import type { Db } from '../db';
import { AppError } from '../errors';
import { findSmartBackendGroup } from './integration-binding';

// needs-reauthorization: a token refresh failed (lastError says why); the tokens are gone and the clinic must
// connect again (lib/emr/refresh-access-token.ts sets it).
export const CONNECTION_STATUSES = ['pending', 'connected', 'needs-registration', 'needs-reauthorization'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** The newest pull of a connection, for the screen to follow a running pull and show its result. */
export const LastRunView = z.object({
  id: z.string(),
  status: z.string(),
  /** While it runs: { phase, files, filesDone, resources } as the pull writes it; null when none was written. */
  progress: z.record(z.string(), z.unknown()).nullable(),
  /** When it ends: per resource type { created, updated, unchanged }, or { error } for a failed run. */
  counts: z.record(z.string(), z.unknown()).nullable(),
  /** Our client-safe message for a failed run (never upstream text). */
  error: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type LastRunView = z.infer<typeof LastRunView>;

export const EmrConnectionView = z.object({
  id: z.string(),
  /** What staff call it ("Epic production"); null when unnamed. */
  name: z.string().nullable(),
  vendor: z.enum(EMR_VENDOR_KINDS),
  status: z.enum(CONNECTION_STATUSES),
  /** Why the connection needs attention, in words (a refresh that failed); null otherwise. */
  lastError: z.string().nullable(),
  canAuthorize: z.boolean(),
  hasClientId: z.boolean(),
  fhirBaseUrl: z.string().nullable(),
  grantedScope: z.string().nullable(),
  tokenExpiresAt: z.string().nullable(),
  connectedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastRun: LastRunView.nullable(),
});
export type EmrConnectionView = z.infer<typeof EmrConnectionView>;

export type ConnectionRow = NonNullable<Awaited<ReturnType<Db['emrConnection']['findUnique']>>>;

/**
 * DECISIONS "EMR and FHIR": true when a client id is stored and the authorize endpoint is known, from the
 * connection's own fhirBaseUrl (SMART discovery) or from its vendor's EMR_VENDORS entry, which must then also
 * name the FHIR base (the `aud` of the request).
 */
export function canAuthorize(
  row: Pick<ConnectionRow, 'clientId' | 'fhirBaseUrl' | 'vendor'>,
  config: Pick<Config, 'emrVendors'>,
): boolean {
  if (!row.clientId) return false;
  if (row.fhirBaseUrl) return true;
  const entry = config.emrVendors[row.vendor as keyof Config['emrVendors']];
  return !!(entry?.authorizeUrl && entry.fhirBaseUrl);
}

/**
 * A smart-backend connection pulls with the deployment's SMART registration, so whether it can pull is the
 * operator's binding of its clinic (DECISIONS "Trust boundaries"), not anything stored on the row.
 */
function statusOf(row: ConnectionRow, config: Pick<Config, 'emrVendors'>): ConnectionStatus {
  if (row.vendor === 'smart-backend')
    return findSmartBackendGroup(config, row.clinicId) ? 'connected' : 'needs-registration';
  return row.status as ConnectionStatus;
}

type SyncRunRow = {
  id: string;
  connectionId: string;
  status: string;
  progress: unknown;
  counts: unknown;
  error: string | null;
  startedAt: Date | string;
  finishedAt: Date | string | null;
};

// DISTINCT ON keeps the newest run of each connection in one statement (Prisma's `distinct` would read every run
// of every connection and pick in memory).
const LAST_RUNS = `
  SELECT DISTINCT ON ("connectionId") "id", "connectionId", "status", "progress", "counts", "error", "startedAt", "finishedAt"
  FROM "SyncRun" WHERE "clinicId" = $1 AND "connectionId" = ANY($2::text[])
  ORDER BY "connectionId", "startedAt" DESC, "id" DESC`;

const asRecord = (value: unknown): Record<string, unknown> | null => {
  const parsed = typeof value === 'string' ? safeJson(value) : value;
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
};

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

// timestamp(3) columns hold UTC wall time; a raw read may hand them back as Date or as text without a zone.
const iso = (value: Date | string) =>
  (value instanceof Date ? value : new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`)).toISOString();

function toLastRunView(run: SyncRunRow): LastRunView {
  return {
    id: run.id,
    status: run.status,
    progress: asRecord(run.progress),
    counts: asRecord(run.counts),
    error: run.error,
    startedAt: iso(run.startedAt),
    finishedAt: run.finishedAt === null ? null : iso(run.finishedAt),
  };
}

/** The newest pull of each of the clinic's connections, by connection id. */
export async function findLastRuns(
  db: Db,
  clinicId: string,
  connectionIds: readonly string[],
): Promise<Map<string, LastRunView>> {
  if (connectionIds.length === 0) return new Map();
  const runs = await db.$queryRawUnsafe<SyncRunRow[]>(LAST_RUNS, clinicId, [...connectionIds]);
  return new Map(runs.map((run) => [run.connectionId, toLastRunView(run)]));
}

export function toConnectionView(
  row: ConnectionRow,
  config: Pick<Config, 'emrVendors'>,
  lastRun: LastRunView | null = null,
): EmrConnectionView {
  return {
    id: row.id,
    name: row.name,
    vendor: row.vendor as EmrConnectionView['vendor'],
    status: statusOf(row, config),
    lastError: row.lastError,
    canAuthorize: canAuthorize(row, config),
    hasClientId: !!row.clientId,
    fhirBaseUrl: row.fhirBaseUrl,
    grantedScope: row.grantedScope,
    tokenExpiresAt: row.tokenExpiresAt?.toISOString() ?? null,
    connectedAt: row.connectedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastRun,
  };
}

/**
 * The connection if it belongs to the clinic. Unknown id: `missing` (NOT_FOUND by default). Another clinic's:
 * `foreign`, NOT_FOUND unless SPEC names 403 for the route (authorize, SMART pull).
 */
export async function getClinicConnection(
  db: Db,
  input: { clinicId: string; id: string },
  errors: { missing?: AppError; foreign?: AppError } = {},
): Promise<ConnectionRow> {
  const row = await db.emrConnection.findUnique({ where: { id: input.id } });
  if (!row) throw errors.missing ?? new AppError('NOT_FOUND', 'No such EMR connection');
  if (row.clinicId !== input.clinicId) throw errors.foreign ?? new AppError('NOT_FOUND', 'No such EMR connection');
  return row;
}
