// An EMR connection as GET /api/emr-sync/connections answers it, a pull's result, and the words the screen uses for
// their vendors: the integrations screen's parts share these.
import type { EmrConnectionView, LastRunView } from '@/lib/emr/connection-view';

/** The connection's latest pull, its progress read as the pull writes it (lib/emr's LastRunView leaves it open). */
export type LastRun = Omit<LastRunView, 'progress'> & {
  progress: { phase?: string; files?: number; filesDone?: number; resources?: number } | null;
};
export type Connection = Omit<EmrConnectionView, 'lastRun'> & { lastRun: LastRun | null };
/** What a connection's pull and a partner pull both answer (lib/emr's PullResult and PartnerPullResult). */
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
