'use client';
// One EMR connection in the list: its state and the operator's next step, rename, the client id, Connect, Pull now
// with the pull's progress (the list read again while it runs) and its result, cancel, delete, and the last run.
import { useEffect, useState, type FormEvent } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { useClinicTime } from '@/components/clinic-time';
import { ErrorNote } from '@/components/error-note';
import { Form } from '@/components/form';
import type { QueuedPull } from '@/lib/emr/pull-job';
import { VENDORS, type Connection, type LastRun, type PullResult } from './connection';
import { PullCounts } from './pull-counts';
import { LastRunSummary, PullProgress } from './pull-run';

/** How often the list is read again while a pull runs, to show its progress. */
const PROGRESS_POLL_MS = 1500;

const STATUS: Record<Connection['status'], string> = {
  pending: 'Pending',
  connected: 'Connected',
  'needs-registration': 'Needs registration',
  'needs-reauthorization': 'Connect again',
};
// needs-registration is an expected step, not a failure (SPEC): neutral, like pending.
const STATUS_CLASS: Record<Connection['status'], string> = {
  pending: 'status-unknown',
  connected: 'status-active',
  'needs-registration': 'status-unknown',
  'needs-reauthorization': 'status-inactive',
};
/** A run in one of these is still going: its progress is followed and it can be cancelled. */
const OPEN_RUN = new Set(['queued', 'running', 'cancelling']);
const BROWSER_VENDORS = new Set(['generic-fhir', 'browser-oauth']);

/** What the operator must do for a connection that cannot pull yet, in words. */
function nextStep(c: Connection): string | null {
  if (c.status === 'needs-reauthorization')
    return `${c.lastError ?? 'The EHR no longer accepts this connection.'} Connect again to renew access.`;
  if (c.vendor === 'smart-backend' && c.status !== 'connected')
    return 'Waiting for the operator to link this clinic to the SMART Backend Services registration (EMR_VENDORS groups).';
  if (c.vendor === 'partner-api') return 'Pulls for the partner API run from the partner pull below.';
  if (!c.hasClientId) return 'Register this app with the EMR, then save the client id it issues.';
  if (!c.canAuthorize) return "The EMR's endpoints are not configured on this server; ask the operator.";
  if (c.status === 'pending') return 'Connect to sign in at the EMR and grant access.';
  return null;
}

/** Pull now works for a connected browser connection and a bound (connected) smart-backend one. */
const canPull = (c: Connection) =>
  c.status === 'connected' && (BROWSER_VENDORS.has(c.vendor) || c.vendor === 'smart-backend');

export function ConnectionRow({ connection: c, onChange }: { connection: Connection; onChange: () => Promise<void> }) {
  const clock = useClinicTime();
  const [error, setError] = useState<unknown>(null);
  const [pull, setPull] = useState<PullResult | null>(null);
  const [progress, setProgress] = useState<LastRun | null>(null);
  const [busy, setBusy] = useState(false);
  /** A pull queued as a job (smart-backend): its run, followed until it ends. */
  const [following, setFollowing] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const title = c.name ?? VENDORS[c.vendor];
  const label = c.name ? `${c.name} (${c.id})` : `${VENDORS[c.vendor]} ${c.id}`;
  const step = nextStep(c);

  async function saveClientId(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const clientId = String(new FormData(event.currentTarget).get('clientId') ?? '').trim();
    try {
      await apiFetch(`/api/emr-sync/connections/${c.id}`, { method: 'PATCH', json: { clientId } });
      setError(null);
    } catch (failure) {
      return setError(failure);
    }
    await onChange();
  }

  async function rename(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    try {
      await apiFetch(`/api/emr-sync/connections/${c.id}`, { method: 'PATCH', json: { name } });
      setError(null);
    } catch (failure) {
      return setError(failure);
    }
    await onChange();
  }

  async function remove() {
    try {
      await apiFetch(`/api/emr-sync/connections/${c.id}`, {
        method: 'DELETE',
        stepUpDescription: `Delete the connection ${label}`,
      });
    } catch (failure) {
      setConfirmDelete(false);
      // A cancelled step-up deletes nothing; ErrorNote says nothing of it.
      return setError(failure);
    }
    await onChange();
  }

  async function runPull(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const since = String(new FormData(event.currentTarget).get('since') ?? '').trim();
    const previousRun = c.lastRun?.id;
    setBusy(true);
    setPull(null);
    setProgress(null);
    setError(null);
    // A browser pull answers when it is done: while the POST runs, the list's lastRun of this connection is its
    // progress. A smart-backend pull answers at once with its queued run, followed below.
    const timer = window.setInterval(async () => {
      const listed = await apiFetch<{ connections: Connection[] }>('/api/emr-sync/connections').catch(() => null);
      const run = listed?.connections.find((x) => x.id === c.id)?.lastRun;
      if (run && run.id !== previousRun) setProgress(run);
    }, PROGRESS_POLL_MS);
    let queued: string | null = null;
    try {
      const query = since ? `?${new URLSearchParams({ since })}` : '';
      const answer = await apiFetch<PullResult | QueuedPull>(`/api/emr-sync/connections/${c.id}/pull${query}`, {
        method: 'POST',
      });
      if ('upserted' in answer) setPull(answer);
      else queued = answer.syncRunId;
    } catch (failure) {
      setError(failure);
    } finally {
      window.clearInterval(timer);
      if (!queued) {
        setProgress(null);
        setBusy(false);
      }
    }
    if (queued) setFollowing(queued);
    else await onChange();
  }

  // A queued pull (also one found unfinished when the page opens): its run is read until it ends, then the list.
  const openRun = c.lastRun && OPEN_RUN.has(c.lastRun.status) ? c.lastRun.id : null;
  const followed = following ?? openRun;
  const pulling = busy || followed !== null;
  useEffect(() => {
    if (!followed) return;
    let stopped = false;
    const timer = window.setInterval(async () => {
      const run = await apiFetch<LastRun>(`/api/emr-sync/runs/${followed}`).catch(() => null);
      if (stopped || !run) return;
      setProgress(run);
      if (OPEN_RUN.has(run.status)) return;
      stopped = true;
      window.clearInterval(timer);
      await onChange();
      setFollowing(null);
      setProgress(null);
      setBusy(false);
    }, PROGRESS_POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [followed, onChange]);

  async function cancelPull() {
    if (!followed) return;
    try {
      setProgress(await apiFetch<LastRun>(`/api/emr-sync/runs/${followed}/cancel`, { method: 'POST' }));
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <tr data-testid={`connection-${c.id}`}>
      <th scope="row" data-label="EMR">
        {title}
        <div className="muted">{c.name ? VENDORS[c.vendor] : null}</div>
        <div className="muted mono">{c.id}</div>
        <details className="integration-rename">
          <summary>Rename</summary>
          <Form onSubmit={rename}>
            <label htmlFor={`name-${c.id}`}>Name</label>
            <input id={`name-${c.id}`} name="name" defaultValue={c.name ?? ''} maxLength={100} autoComplete="off" />
            <button type="submit" className="secondary" aria-label={`Save name for ${label}`}>
              Save name
            </button>
          </Form>
        </details>
      </th>
      <td data-label="Status">
        <span data-testid="connection-status" className={STATUS_CLASS[c.status]}>
          {STATUS[c.status]}
          {c.connectedAt && c.status === 'connected' && (
            <span className="muted"> since {clock.dateTime(c.connectedAt)}</span>
          )}
        </span>
        {step && <p className="muted integration-step">{step}</p>}
      </td>
      <td data-label="FHIR server">{c.fhirBaseUrl ?? <span className="muted">as configured for the vendor</span>}</td>
      <td data-label="Client id">
        {c.hasClientId ? (
          'Registered'
        ) : c.vendor === 'smart-backend' || c.vendor === 'partner-api' ? (
          <span className="muted">Not needed</span>
        ) : (
          <Form onSubmit={saveClientId} className="row">
            <div>
              <label htmlFor={`client-id-${c.id}`}>Client id issued by the EMR</label>
              <input id={`client-id-${c.id}`} name="clientId" required autoComplete="off" />
            </div>
            <button type="submit" aria-label={`Save client id for ${label}`}>
              Save
            </button>
          </Form>
        )}
      </td>
      <td data-label="Actions">
        {BROWSER_VENDORS.has(c.vendor) &&
          (c.canAuthorize ? (
            // A full page navigation: the authorize route answers with a redirect to the EMR.
            <a
              href={`/api/emr-sync/authorize?connectionId=${encodeURIComponent(c.id)}`}
              aria-label={`${c.status === 'needs-reauthorization' ? 'Connect again' : c.status === 'connected' ? 'Reconnect' : 'Connect'} ${label}`}
            >
              {c.status === 'needs-reauthorization'
                ? 'Connect again'
                : c.status === 'connected'
                  ? 'Reconnect'
                  : 'Connect'}
            </a>
          ) : (
            <span className="muted">{c.hasClientId ? 'EMR endpoints not configured' : 'Add the client id first'}</span>
          ))}
        {canPull(c) && (
          <Form onSubmit={runPull}>
            {c.vendor === 'smart-backend' && (
              <>
                <label htmlFor={`since-${c.id}`}>Changed since (optional, ISO-8601)</label>
                <input id={`since-${c.id}`} name="since" placeholder="2024-06-01T00:00:00Z" />
              </>
            )}
            <p>
              <button type="submit" disabled={pulling} aria-label={`Pull now from ${label}`}>
                {pulling ? 'Pulling…' : 'Pull now'}
              </button>
            </p>
          </Form>
        )}
        <div aria-live="polite" data-testid="pull-progress">
          {pulling && <PullProgress run={progress} />}
        </div>
        {followed && (
          <p>
            <button
              type="button"
              className="secondary"
              onClick={cancelPull}
              disabled={progress?.status === 'cancelling'}
              aria-label={`Cancel the pull from ${label}`}
            >
              {progress?.status === 'cancelling' ? 'Cancelling…' : 'Cancel pull'}
            </button>
          </p>
        )}
        {error ? <ErrorNote error={error} /> : null}
        {pull && <PullCounts result={pull} label="Pull result" />}
        {!pulling && !pull && c.lastRun && c.lastRun.finishedAt && <LastRunSummary run={c.lastRun} />}
        {confirmDelete ? (
          <p className="row">
            <span>Delete {title}? Its tokens are removed; pulled records stay.</span>
            <button type="button" className="secondary" onClick={remove} aria-label={`Yes, delete ${label}`}>
              Yes, delete
            </button>
            <button type="button" className="secondary" onClick={() => setConfirmDelete(false)}>
              Keep it
            </button>
          </p>
        ) : (
          <p>
            <button
              type="button"
              className="secondary"
              onClick={() => setConfirmDelete(true)}
              aria-label={`Delete ${label}`}
            >
              Delete
            </button>
          </p>
        )}
      </td>
    </tr>
  );
}
