// An EMR connection as GET /api/emr-sync/connections answers it, a pull's result, and the words the screen uses for
// their vendors: the integrations screen's parts share these.

export type LastRun = {
  id: string;
  status: string;
  progress: { phase?: string; files?: number; filesDone?: number; resources?: number } | null;
  counts: Record<string, unknown> | null;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
};
export type Connection = {
  id: string;
  name: string | null;
  vendor: 'generic-fhir' | 'browser-oauth' | 'smart-backend' | 'partner-api';
  status: 'pending' | 'connected' | 'needs-registration' | 'needs-reauthorization';
  lastError: string | null;
  canAuthorize: boolean;
  hasClientId: boolean;
  fhirBaseUrl: string | null;
  connectedAt: string | null;
  lastRun: LastRun | null;
};
/** "Pull now" of a smart-backend connection: queued as a job, its run to follow. */
export type QueuedPull = { syncRunId: string; status: 'queued' };
export type PullResult = {
  upserted: Record<string, number>;
  /** Stored resources removed because the EHR deleted them (a Bulk Data export's `deleted`). */
  deleted?: Record<string, number>;
  fhirStore: string;
  range?: { from: string; to: string };
};

export const VENDORS: Record<Connection['vendor'], string> = {
  'generic-fhir': 'SMART on FHIR server',
  'browser-oauth': 'Supported EMR (browser sign-in)',
  'smart-backend': 'SMART Backend Services',
  'partner-api': 'Partner API',
};
