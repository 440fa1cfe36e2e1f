'use client';
// The background work screen: schedules, recent jobs, and dead letters (failed jobs) with their reason in words.
// A retry goes through apiFetch with a description, so the step-up dialog says what it confirms; a cancelled
// step-up changes nothing.
import { useCallback, useEffect, useState } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { useClinicTime } from '@/components/clinic-time';
import { isStepUpCancelled } from '@/components/step-up-prompt';
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
type Schedule = { name: string; cron: string; timeZone: string; lastRunAt: string | null; nextRunAt: string | null };
type JobList = { jobs: Job[]; schedules: Schedule[] };

/** Queues and schedules in the words of the screens whose work they do. */
const LABELS: Record<string, string> = {
  'bulk-export': 'FHIR bulk export',
  'claims.sandbox-remittance': 'Sandbox payer remittance',
  'eligibility.pre-verification': "Pre-verification of a day's appointments",
  reconcile: 'Reconciliation',
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
      if (!isStepUpCancelled(error)) setActionError(error);
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
        {list && list.schedules.length === 0 && <p>No schedule runs for this clinic yet.</p>}
        {list && list.schedules.length > 0 && (
          <table className="admin-list">
            <caption className="visually-hidden">Schedules that run for this clinic</caption>
            <thead>
              <tr>
                <th scope="col">Schedule</th>
                <th scope="col">Last run</th>
                <th scope="col">Next run</th>
              </tr>
            </thead>
            <tbody>
              {list.schedules.map((s) => (
                <tr key={`${s.name} ${s.timeZone}`} data-testid={`schedule-${s.name}`}>
                  <th scope="row" data-label="Schedule">
                    {label(s.name)}{' '}
                    <span className="muted mono">
                      ({s.cron}, {s.timeZone})
                    </span>
                  </th>
                  <td data-label="Last run">{s.lastRunAt ? when.dateTime(s.lastRunAt) : 'Not yet'}</td>
                  <td data-label="Next run">{s.nextRunAt ? when.dateTime(s.nextRunAt) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="card" aria-labelledby="dead-title">
        <h2 id="dead-title">Dead letters</h2>
        <p role="status" className="admin-notice">
          {notice ?? ''}
        </p>
        {actionError ? <ErrorNote error={actionError} /> : null}
        {list && deadLetters.length === 0 && <p>No failed jobs.</p>}
        {deadLetters.length > 0 && (
          <table className="admin-list">
            <caption className="visually-hidden">Jobs that failed on every attempt</caption>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Failed</th>
                <th scope="col">Reason</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {deadLetters.map((job) => (
                <tr key={job.id} data-testid={`dead-${job.id}`}>
                  <th scope="row" data-label="Job">
                    {label(job.queue)} <span className="muted">after {job.attempts} attempts</span>
                  </th>
                  <td data-label="Failed">{job.completedAt ? when.dateTime(job.completedAt) : '—'}</td>
                  <td data-label="Reason">{job.lastError ?? 'No reason recorded'}</td>
                  <td data-label="Actions">
                    <button
                      type="button"
                      className="secondary"
                      disabled={busyId !== null}
                      aria-label={`Retry ${label(job.queue)} job ${job.id}`}
                      onClick={() => retry(job)}
                    >
                      Retry
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="card" aria-labelledby="jobs-title">
        <h2 id="jobs-title">Recent jobs</h2>
        {list && list.jobs.length === 0 && <p>No background jobs for this clinic yet.</p>}
        {list && list.jobs.length > 0 && (
          <table className="admin-list">
            <caption className="visually-hidden">The clinic&apos;s jobs, newest first (at most 100)</caption>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">State</th>
                <th scope="col">Attempts</th>
                <th scope="col">Queued</th>
                <th scope="col">Finished</th>
              </tr>
            </thead>
            <tbody>
              {list.jobs.map((job) => (
                <tr key={job.id}>
                  <th scope="row" data-label="Job">
                    {label(job.queue)}
                  </th>
                  <td data-label="State">
                    {STATES[job.state]}
                    {job.lastError && job.state !== 'failed' && <span className="muted"> · {job.lastError}</span>}
                  </td>
                  <td data-label="Attempts">{job.attempts}</td>
                  <td data-label="Queued">{when.dateTime(job.createdAt)}</td>
                  <td data-label="Finished">{job.completedAt ? when.dateTime(job.completedAt) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
