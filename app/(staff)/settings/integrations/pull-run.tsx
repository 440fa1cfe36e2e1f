// A pull run in words: its progress while it runs (queued, the phase, files and resources so far), and once it has
// ended, how it ended and what it stored.
import { useClinicTime } from '@/components/clinic-time';
import type { LastRun } from './connection';

const PHASES: Record<string, string> = {
  starting: 'Starting',
  discovery: 'Asking the EHR what it offers',
  exporting: 'The EHR is preparing the export',
  downloading: 'Downloading',
  searching: 'Reading resources',
  committing: 'Saving',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function PullProgress({ run }: { run: LastRun | null }) {
  const p = run?.progress;
  if (run?.status === 'queued') return <p className="muted">Queued: waiting for a worker…</p>;
  if (run?.status === 'cancelling') return <p className="muted">Cancelling: nothing will be saved…</p>;
  if (!p) return <p className="muted">Pull started…</p>;
  const phase = PHASES[p.phase ?? ''] ?? p.phase ?? 'Working';
  const files = p.files ? `, ${p.filesDone ?? 0} of ${p.files} files` : '';
  return (
    <p className="muted">
      {phase}
      {files}, {p.resources ?? 0} resources so far
    </p>
  );
}

export function LastRunSummary({ run }: { run: LastRun }) {
  const clock = useClinicTime();
  const when = clock.dateTime(run.finishedAt ?? run.startedAt);
  if (run.status === 'failed')
    return (
      <p className="muted">
        Last pull {when} failed{run.error ? `: ${run.error}` : ''}.
      </p>
    );
  if (run.status === 'cancelled') return <p className="muted">Last pull {when} was cancelled; nothing was saved.</p>;
  let total = 0;
  let deleted = 0;
  for (const c of Object.values(run.counts ?? {})) {
    if (c && typeof c === 'object') {
      const t = c as { created?: number; updated?: number; unchanged?: number; deleted?: number };
      total += (t.created ?? 0) + (t.updated ?? 0) + (t.unchanged ?? 0);
      deleted += t.deleted ?? 0;
    }
  }
  return (
    <p className="muted">
      Last pull {when}: {total} resources{deleted > 0 ? `, ${deleted} removed as deleted in the EHR` : ''}.
    </p>
  );
}
