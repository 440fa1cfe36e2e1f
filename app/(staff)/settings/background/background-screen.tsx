'use client';
// The background work screen: schedules with how their last run ended, recent jobs, and dead letters (failed jobs)
// with their reason in words.
// A retry goes through apiFetch with a description, so the step-up dialog says what it confirms; a cancelled
// step-up changes nothing.
import { useCallback, useEffect, useState } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { useClinicTime } from '@/components/clinic-time';
import { DataTable } from '@/components/data-table';
import { ErrorNote } from '@/components/error-note';

type Job = {
  id: string;
  queue: string;
  state: 'created' | 'active' | 'retry' | 'completed' | 'failed' | 'cancelled';
  attempts: number;
  lastError: string | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
};
type Schedule = {
  name: string;
  cron: string;
  timeZone: string;
  lastRunAt: string | null;
  nextRunAt: string | null;
  lastRunState: Job['state'] | null;
  lastRunError: string | null;
};
type JobList = { jobs: Job[]; schedules: Schedule[] };

/** Queues and schedules in the words of the screens whose work they do. */
// Every queue and schedule the platform has (lib/schedules, the *_QUEUE names); anything else shows its own name.
const LABELS: Record<string, string> = {
  'bulk-export': 'FHIR bulk export',
  'claims.sandbox-remittance': 'Sandbox payer remittance',
  'eligibility.pre-verification': "Pre-verification of a day's appointments",
  'emr-pull': 'EMR pull',
  reconcile: 'Reconciliation',
  'remittances.era-post': 'Posting a large remittance (835)',
  'schedule.claim-send-recovery': 'Finish claim sends left without an answer',
  'schedule.claim-status-follow-up': 'Ask payers about quiet claims (276)',
  'schedule.demo-day': "The demo clinic's day (sandbox)",
  'schedule.era-retrieval': 'Fetch remittances (835) from the clearinghouse',
  'schedule.pre-verification': "Pre-verify tomorrow's appointments",
  'schedule.reconciliation': "Reconcile yesterday's money",
};
const STATES: Record<Job['state'], string> = {
  created: 'Queued',
  active: 'Running',
  retry: 'Waiting to retry',
  completed: 'Done',
  failed: 'Failed (dead letter)',
  cancelled: 'Cancelled',
};
const label = (name: string) => LABELS[name] ?? name;

async function fetchJobs(): Promise<JobList | { error: unknown }> {
  try {
    return await apiFetch<JobList>('/api/jobs');
  } catch (error) {
    return { error };
  }
}

export function BackgroundScreen() {
  const when = useClinicTime();
  const [list, setList] = useState<JobList | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [busyId, setBusyId] = useState<string | null>(null);

  const apply = useCallback((loaded: JobList | { error: unknown }) => {
    if ('error' in loaded) setLoadError(loaded.error);
    else {
      setList(loaded);
      setLoadError(null);
    }
  }, []);

  useEffect(() => {
    let current = true;
    void fetchJobs().then((loaded) => {
      if (current) apply(loaded);
    });
    return () => {
      current = false;
    };
  }, [apply]);

  async function retry(job: Job) {
    setBusyId(job.id);
    setNotice(null);
    setActionError(null);
    const description = `Retry ${label(job.queue)} (job ${job.id.slice(0, 8)})`;
    try {
      await apiFetch(`/api/jobs/${encodeURIComponent(job.id)}/retry`, {
        method: 'POST',
        stepUpDescription: description,
      });
      setNotice(`Done: ${description}.`);
      apply(await fetchJobs());
    } catch (error) {
      setActionError(error);
    } finally {
      setBusyId(null);
    }
  }

  const deadLetters = list?.jobs.filter((job) => job.state === 'failed') ?? [];
  return (
    <>
      {loadError ? <ErrorNote error={loadError} /> : null}
      <section className="card" aria-labelledby="schedules-title">
        <h2 id="schedules-title">Schedules</h2>
        <DataTable
          rows={list?.schedules ?? null}
          stack="admin"
          caption="Schedules that run for this clinic"
          loading={null}
          empty="No schedule runs for this clinic yet."
          rowKey={(s) => `${s.name} ${s.timeZone}`}
          rowProps={(s) => ({ 'data-testid': `schedule-${s.name}` })}
          columns={[
            {
              header: 'Schedule',
              rowHeader: true,
              cell: (s) => (
                <>
                  {label(s.name)}{' '}
                  <span className="muted mono">
                    ({s.cron}, {s.timeZone})
                  </span>
                </>
              ),
            },
            {
              header: 'Last run',
              // When it ran and how it ended: a failed run (or a failed attempt being retried) says why.
              cell: (s) =>
                s.lastRunAt ? (
                  <>
                    {when.dateTime(s.lastRunAt)}
                    {s.lastRunState ? (
                      <span className={s.lastRunState === 'failed' ? 'error' : 'muted'}>
                        {' '}
                        · {STATES[s.lastRunState]}
                      </span>
                    ) : null}
                    {s.lastRunError ? <span className="muted"> · {s.lastRunError}</span> : null}
                  </>
                ) : (
                  'Not yet'
                ),
            },
            { header: 'Next run', cell: (s) => (s.nextRunAt ? when.dateTime(s.nextRunAt) : '—') },
          ]}
        />
      </section>
      <section className="card" aria-labelledby="dead-title">
        <h2 id="dead-title">Dead letters</h2>
        <p role="status" className="admin-notice">
          {notice ?? ''}
        </p>
        {actionError ? <ErrorNote error={actionError} /> : null}
        <DataTable
          rows={list ? deadLetters : null}
          stack="admin"
          caption="Jobs that failed on every attempt"
          loading={null}
          empty="No failed jobs."
          rowKey={(job) => job.id}
          rowProps={(job) => ({ 'data-testid': `dead-${job.id}` })}
          columns={[
            {
              header: 'Job',
              rowHeader: true,
              cell: (job) => (
                <>
                  {label(job.queue)} <span className="muted">after {job.attempts} attempts</span>
                </>
              ),
            },
            { header: 'Failed', cell: (job) => (job.completedAt ? when.dateTime(job.completedAt) : '—') },
            { header: 'Reason', cell: (job) => job.lastError ?? 'No reason recorded' },
            {
              header: 'Actions',
              cell: (job) => (
                <button
                  type="button"
                  className="secondary"
                  disabled={busyId !== null}
                  aria-label={`Retry ${label(job.queue)} job ${job.id}`}
                  onClick={() => retry(job)}
                >
                  Retry
                </button>
              ),
            },
          ]}
        />
      </section>
      <section className="card" aria-labelledby="jobs-title">
        <h2 id="jobs-title">Recent jobs</h2>
        <DataTable
          rows={list?.jobs ?? null}
          stack="admin"
          caption="The clinic's jobs, newest first (at most 100)"
          loading={null}
          empty="No background jobs for this clinic yet."
          rowKey={(job) => job.id}
          columns={[
            { header: 'Job', rowHeader: true, cell: (job) => label(job.queue) },
            {
              header: 'State',
              cell: (job) => (
                <>
                  {STATES[job.state]}
                  {job.lastError && job.state !== 'failed' && <span className="muted"> · {job.lastError}</span>}
                </>
              ),
            },
            { header: 'Attempts', cell: (job) => job.attempts },
            { header: 'Queued', cell: (job) => when.dateTime(job.createdAt) },
            { header: 'Finished', cell: (job) => (job.completedAt ? when.dateTime(job.completedAt) : '—') },
          ]}
        />
      </section>
    </>
  );
}
