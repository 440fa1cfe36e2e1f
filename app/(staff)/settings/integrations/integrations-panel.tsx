'use client';
// The integrations screen's client side: everything goes through /api/emr-sync, as an integrator would call it.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'next/navigation';
import { apiFetch } from '@/components/api-fetch';
import { ApiError } from '@/components/api-error';
import { describeApiError } from '@/components/describe-api-error';

type Connection = {
  id: string;
  vendor: 'generic-fhir' | 'browser-oauth' | 'smart-backend' | 'partner-api';
  status: 'pending' | 'connected' | 'needs-registration';
  canAuthorize: boolean;
  hasClientId: boolean;
  fhirBaseUrl: string | null;
  connectedAt: string | null;
};
type PullResult = { upserted: Record<string, number>; fhirStore: string; range?: { from: string; to: string } };

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
};
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

function Counts({ result, label }: { result: PullResult; label: string }) {
  return (
    <div className="table-wrap" aria-live="polite">
      <table aria-label={label}>
        <caption className="muted">
          {label}: stored in the {result.fhirStore} FHIR store
          {result.range ? `, ${result.range.from} to ${result.range.to}` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Resource type</th>
            <th scope="col">Upserted</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(result.upserted).map(([type, n]) => (
            <tr key={type}>
              <td>{type}</td>
              <td data-testid={`count-${type}`}>{n}</td>
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
          <div className="table-wrap">
            <table aria-label="EMR connections">
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
          </div>
        )}
      </section>
      <CreateConnection onCreated={load} />
      <PartnerPull />
    </>
  );
}

function ConnectionRow({ connection: c, onChange }: { connection: Connection; onChange: () => Promise<void> }) {
  const [error, setError] = useState<unknown>(null);
  const [pull, setPull] = useState<PullResult | null>(null);
  const [busy, setBusy] = useState(false);
  const label = `${VENDORS[c.vendor]} ${c.id}`;

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

  async function runPull(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const since = String(new FormData(event.currentTarget).get('since') ?? '').trim();
    setBusy(true);
    try {
      setPull(
        await apiFetch<PullResult>('/api/emr-sync/smart/pull', {
          method: 'POST',
          json: { connectionId: c.id, ...(since && { since }) },
        }),
      );
      setError(null);
    } catch (failure) {
      setPull(null);
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <tr data-testid={`connection-${c.id}`}>
      <td>
        {VENDORS[c.vendor]}
        <div className="muted mono">{c.id}</div>
      </td>
      <td
        data-testid="connection-status"
        className={
          c.status === 'connected' ? 'status-active' : c.status === 'pending' ? 'status-unknown' : 'status-inactive'
        }
      >
        {STATUS[c.status]}
        {c.connectedAt && <div className="muted">since {new Date(c.connectedAt).toLocaleString()}</div>}
      </td>
      <td>{c.fhirBaseUrl ?? <span className="muted">as configured for the vendor</span>}</td>
      <td>
        {c.hasClientId ? (
          'Registered'
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
      <td>
        {BROWSER_VENDORS.has(c.vendor) &&
          (c.canAuthorize ? (
            // A full page navigation: the authorize route answers with a redirect to the EMR.
            <a
              href={`/api/emr-sync/authorize?connectionId=${encodeURIComponent(c.id)}`}
              aria-label={`Connect ${label}`}
            >
              {c.status === 'connected' ? 'Reconnect' : 'Connect'}
            </a>
          ) : (
            <span className="muted">{c.hasClientId ? 'EMR endpoints not configured' : 'Add the client id first'}</span>
          ))}
        {c.vendor === 'smart-backend' && (
          <form onSubmit={runPull}>
            <label htmlFor={`since-${c.id}`}>Changed since (optional, ISO-8601)</label>
            <input id={`since-${c.id}`} name="since" placeholder="2024-06-01T00:00:00Z" />
            <p>
              <button type="submit" disabled={busy} aria-label={`Pull now from ${label}`}>
                {busy ? 'Pulling…' : 'Pull now'}
              </button>
            </p>
          </form>
        )}
        <ErrorMessage error={error} />
        {pull && <Counts result={pull} label="Pull result" />}
      </td>
    </tr>
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
    try {
      await apiFetch('/api/emr-sync/connections', {
        method: 'POST',
        json: { vendor: data.get('vendor'), ...(clientId && { clientId }), ...(fhirBaseUrl && { fhirBaseUrl }) },
      });
      setError(null);
    } catch (failure) {
      return setError(failure);
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
      <p className="muted">One day, or a range of at most 31 days (UTC).</p>
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
