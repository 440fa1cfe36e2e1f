'use client';
// The integrations screen's client side: everything goes through /api/emr-sync, as an integrator would call it.
// Each connection says what state it is in and what the operator must do next; "Connect" and "Pull now" appear
// only when they can work, and a pull shows its progress (the connection list's lastRun, polled while the pull
// runs) and then its result.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'next/navigation';
import { apiFetch } from '@/components/api-fetch';
import { isStepUpCancelled } from '@/components/step-up-prompt';
import { ApiError } from '@/components/api-error';
import { describeApiError } from '@/components/describe-api-error';
import { useClinicTime } from '@/components/clinic-time';

type LastRun = {
  id: string;
  status: string;
  progress: { phase?: string; files?: number; filesDone?: number; resources?: number } | null;
  counts: Record<string, unknown> | null;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
};
type Connection = {
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
type QueuedPull = { syncRunId: string; status: 'queued' };
type PullResult = {
  upserted: Record<string, number>;
  /** Stored resources removed because the EHR deleted them (a Bulk Data export's `deleted`). */
  deleted?: Record<string, number>;
  fhirStore: string;
  range?: { from: string; to: string };
};

/** How often the list is read again while a pull runs, to show its progress. */
const PROGRESS_POLL_MS = 1500;

const VENDORS: Record<Connection['vendor'], string> = {
  'generic-fhir': 'SMART on FHIR server',
  'browser-oauth': 'Supported EMR (browser sign-in)',
  'smart-backend': 'SMART Backend Services',
  'partner-api': 'Partner API',
};
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
/** A run in one of these is still going: its progress is followed and it can be cancelled. */
const OPEN_RUN = new Set(['queued', 'running', 'cancelling']);
const BROWSER_VENDORS = new Set(['generic-fhir', 'browser-oauth']);

// What went wrong in the OAuth round trip, by our error code (the redirect carries only the code).
const OAUTH_FAILURES: Record<string, string> = {
  VALIDATION_FAILED:
    'The authorization could not be completed: it expired, was already used, or the EMR declined it. Start again with Connect.',
  FORBIDDEN: 'This authorization was started by another user or clinic, or the connection has no client id.',
  NOT_FOUND: 'That connection does not exist.',
  DEPENDENCY_UNAVAILABLE: "The EMR's endpoints are not configured on this server.",
  TRANSPORT_FAILED: 'The EMR could not be reached. Try again later.',
  UNPROCESSABLE: 'The EMR refused the authorization. Connect again.',
};

/** The connection list, or what went wrong loading it. */
const loadConnections = (): Promise<{ connections: Connection[] } | { error: unknown }> =>
  apiFetch<{ connections: Connection[] }>('/api/emr-sync/connections').catch((error: unknown) => ({ error }));

/** What a call threw: the server's message with its field problems and reference, or why no answer came. */
function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  if (!(error instanceof ApiError))
    return (
      <div role="alert" className="error">
        {describeApiError(error)}
      </div>
    );
  const { message, issues, correlationId } = error.body;
  return (
    <div role="alert" className="error">
      {message}
      {issues?.length ? (
        <ul>
          {issues.map((i) => (
            <li key={i.path}>
              {i.path.replace(/^body\./, '')}: {i.message}
            </li>
          ))}
        </ul>
      ) : null}
      {correlationId ? (
        <div className="muted">
          Reference: <code>{correlationId}</code>
        </div>
      ) : null}
    </div>
  );
}

/** The FHIR resource types a pull saves, in a clinic's words. */
const RECORD_WORDS: Record<string, string> = {
  Patient: 'Patients',
  Encounter: 'Visits',
  Observation: 'Observations (vitals, results)',
  Condition: 'Conditions (diagnoses)',
  MedicationRequest: 'Medications',
  AllergyIntolerance: 'Allergies',
};

function Counts({ result, label }: { result: PullResult; label: string }) {
  const clock = useClinicTime();
  const anyDeleted = Object.values(result.deleted ?? {}).some((n) => n > 0);
  return (
    <div aria-live="polite">
      <table aria-label={label}>
        <caption className="muted">
          {label}: stored in the {result.fhirStore} FHIR store
          {result.range ? `, ${clock.dateTime(result.range.from)} to ${clock.dateTime(result.range.to)}` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Records</th>
            <th scope="col">Saved</th>
            {anyDeleted && <th scope="col">Removed</th>}
          </tr>
        </thead>
        <tbody>
          {Object.entries(result.upserted).map(([type, n]) => (
            <tr key={type}>
              <td>{RECORD_WORDS[type] ?? type}</td>
              <td data-testid={`count-${type}`}>{n}</td>
              {anyDeleted && <td data-testid={`deleted-${type}`}>{result.deleted?.[type] ?? 0}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function IntegrationsPanel() {
  const params = useSearchParams();
  const [connections, setConnections] = useState<Connection[] | null>(null);
  const [listError, setListError] = useState<unknown>(null);

  const apply = useCallback((res: Awaited<ReturnType<typeof loadConnections>>) => {
    if ('error' in res) setListError(res.error);
    else {
      setConnections(res.connections);
      setListError(null);
    }
  }, []);
  const load = useCallback(async () => apply(await loadConnections()), [apply]);
  useEffect(() => {
    let current = true;
    void loadConnections().then((res) => {
      if (current) apply(res);
    });
    return () => {
      current = false;
    };
  }, [apply]);

  const outcome = params.get('oauth');
  return (
    <>
      {outcome === 'connected' && (
        <p role="status" className="card status-active">
          The EMR connection is connected.
        </p>
      )}
      {outcome === 'failed' && (
        <div role="alert" className="card error">
          {OAUTH_FAILURES[params.get('code') ?? ''] ?? 'The connection failed.'}
          {params.get('correlationId') && (
            <div className="muted">
              Reference: <code>{params.get('correlationId')}</code>
            </div>
          )}
        </div>
      )}
      <section className="card" aria-labelledby="connections-heading">
        <h2 id="connections-heading">EMR connections</h2>
        <ErrorMessage error={listError} />
        {connections === null && !listError && <p className="muted">Loading…</p>}
        {connections?.length === 0 && <p className="muted">No connections yet.</p>}
        {connections && connections.length > 0 && (
          <table aria-label="EMR connections" className="admin-list">
            <thead>
              <tr>
                <th scope="col">EMR</th>
                <th scope="col">Status</th>
                <th scope="col">FHIR server</th>
                <th scope="col">Client id</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {connections.map((c) => (
                <ConnectionRow key={c.id} connection={c} onChange={load} />
              ))}
            </tbody>
          </table>
        )}
      </section>
      <CreateConnection onCreated={load} />
      <PartnerPull />
    </>
  );
}

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

function ConnectionRow({ connection: c, onChange }: { connection: Connection; onChange: () => Promise<void> }) {
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
      // A cancelled step-up deletes nothing and is no error.
      return setError(isStepUpCancelled(failure) ? null : failure);
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
          <form onSubmit={rename}>
            <label htmlFor={`name-${c.id}`}>Name</label>
            <input id={`name-${c.id}`} name="name" defaultValue={c.name ?? ''} maxLength={100} autoComplete="off" />
            <button type="submit" className="secondary" aria-label={`Save name for ${label}`}>
              Save name
            </button>
          </form>
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
          <form onSubmit={saveClientId} className="row">
            <div>
              <label htmlFor={`client-id-${c.id}`}>Client id issued by the EMR</label>
              <input id={`client-id-${c.id}`} name="clientId" required autoComplete="off" />
            </div>
            <button type="submit" aria-label={`Save client id for ${label}`}>
              Save
            </button>
          </form>
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
          <form onSubmit={runPull}>
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
          </form>
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
        <ErrorMessage error={error} />
        {pull && <Counts result={pull} label="Pull result" />}
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

function PullProgress({ run }: { run: LastRun | null }) {
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

function LastRunSummary({ run }: { run: LastRun }) {
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

function CreateConnection({ onCreated }: { onCreated: () => Promise<void> }) {
  const [error, setError] = useState<unknown>(null);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const clientId = String(data.get('clientId') ?? '').trim();
    const fhirBaseUrl = String(data.get('fhirBaseUrl') ?? '').trim();
    const name = String(data.get('name') ?? '').trim();
    try {
      await apiFetch('/api/emr-sync/connections', {
        method: 'POST',
        json: {
          vendor: data.get('vendor'),
          ...(name && { name }),
          ...(clientId && { clientId }),
          ...(fhirBaseUrl && { fhirBaseUrl }),
        },
        stepUpDescription: `Add ${name ? `the connection ${name}` : 'an EMR connection'}`,
      });
      setError(null);
    } catch (failure) {
      return setError(isStepUpCancelled(failure) ? null : failure);
    }
    form.reset();
    await onCreated();
  }
  return (
    <section className="card" aria-labelledby="create-heading">
      <h2 id="create-heading">Add a connection</h2>
      <form onSubmit={submit}>
        <label htmlFor="vendor">EMR type</label>
        <select id="vendor" name="vendor" defaultValue="browser-oauth">
          {Object.entries(VENDORS).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
        <label htmlFor="connection-name">Name (optional, e.g. &ldquo;Epic production&rdquo;)</label>
        <input id="connection-name" name="name" maxLength={100} autoComplete="off" />
        <label htmlFor="clientId">Client id (optional: add it later if the EMR has not issued one yet)</label>
        <input id="clientId" name="clientId" autoComplete="off" />
        <label htmlFor="fhirBaseUrl">FHIR base URL (optional: for a server not configured for its vendor)</label>
        <input id="fhirBaseUrl" name="fhirBaseUrl" type="url" placeholder="https://emr.example/fhir/R4" />
        <ErrorMessage error={error} />
        <p>
          <button type="submit">Add connection</button>
        </p>
      </form>
    </section>
  );
}

function PartnerPull() {
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<PullResult | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const [date, from, to] = ['date', 'from', 'to'].map((k) => String(data.get(k) ?? '').trim());
    setBusy(true);
    try {
      setResult(
        await apiFetch<PullResult>('/api/emr-sync/partner/pull', {
          method: 'POST',
          json: date ? { date } : { from, to },
        }),
      );
      setError(null);
    } catch (failure) {
      setResult(null);
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="card" aria-labelledby="partner-heading">
      <h2 id="partner-heading">Partner API pull</h2>
      <p className="muted">One day, or a range of at most 31 days, in the clinic&apos;s time zone.</p>
      <form onSubmit={submit}>
        <div className="row">
          <div>
            <label htmlFor="partner-date">Day</label>
            <input id="partner-date" name="date" type="date" />
          </div>
          <div>
            <label htmlFor="partner-from">or from</label>
            <input id="partner-from" name="from" type="date" />
          </div>
          <div>
            <label htmlFor="partner-to">to</label>
            <input id="partner-to" name="to" type="date" />
          </div>
        </div>
        <ErrorMessage error={error} />
        <p>
          <button type="submit" disabled={busy}>
            {busy ? 'Pulling…' : 'Pull from partner'}
          </button>
        </p>
      </form>
      {result && <Counts result={result} label="Partner pull result" />}
    </section>
  );
}
