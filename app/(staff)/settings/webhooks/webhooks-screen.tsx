'use client';
// The webhooks screen: the clinic's endpoints, each with its recent deliveries (status, HTTP answer, latency),
// re-send, a test event, secret rotation and delete; a form to register one. A secret is shown once, right after
// creation or rotation, with the words that it will not be shown again. Changes go through apiFetch with a
// description, so the step-up dialog says what it confirms; a cancelled step-up changes nothing.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { useClinicTime } from '@/components/clinic-time';
import { describeApiError } from '@/components/describe-api-error';
import { isStepUpCancelled } from '@/components/step-up-prompt';
import { EVENT_TYPES } from '@/lib/events/event-types';

type Endpoint = {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  disabledReason: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
};
type Delivery = {
  id: string;
  eventId: string;
  type: string;
  attempt: number;
  status: 'pending' | 'retrying' | 'delivered' | 'failed';
  responseStatus: number | null;
  durationMs: number | null;
  at: string;
  nextAttemptAt: string | null;
};

const STATUS_WORDS: Record<Delivery['status'], string> = {
  pending: 'Waiting to send',
  retrying: 'Failed, will retry',
  delivered: 'Delivered',
  failed: 'Failed for good',
};
const SUBSCRIBABLE = EVENT_TYPES.filter((t) => t !== 'webhook.test');

async function fetchEndpoints(): Promise<Endpoint[] | { error: string }> {
  try {
    return (await apiFetch<{ endpoints: Endpoint[] }>('/api/webhook-endpoints')).endpoints;
  } catch (e) {
    return { error: describeApiError(e, { withReference: true }) };
  }
}

/** An endpoint's deliveries; none shown when they cannot be read (the endpoint's own errors are on the page). */
async function fetchDeliveries(base: string): Promise<Delivery[]> {
  try {
    return (await apiFetch<{ deliveries: Delivery[] }>(`${base}/deliveries`)).deliveries;
  } catch {
    return [];
  }
}

export function WebhooksScreen() {
  const [endpoints, setEndpoints] = useState<Endpoint[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ endpointId: string; value: string } | null>(null);

  const apply = useCallback((loaded: Endpoint[] | { error: string }) => {
    if ('error' in loaded) setError(loaded.error);
    else setEndpoints(loaded);
  }, []);
  const load = useCallback(async () => apply(await fetchEndpoints()), [apply]);
  useEffect(() => {
    let current = true;
    void fetchEndpoints().then((loaded) => {
      if (current) apply(loaded);
    });
    return () => {
      current = false;
    };
  }, [apply]);

  /** Runs a change; reports it, or its error (nothing for a cancelled step-up), and reloads the list. */
  async function act(done: string, call: () => Promise<void>) {
    setNotice(null);
    setError(null);
    try {
      await call();
      setNotice(done);
      await load();
    } catch (e) {
      if (!isStepUpCancelled(e)) setError(describeApiError(e, { withReference: true }));
    }
  }

  return (
    <>
      <p>
        We POST the events you choose to your endpoint, signed with its secret (X-Svc-Signature, and the Standard
        Webhooks headers). See the API docs for the payloads and how to verify them.
      </p>
      <p role="status" className="admin-notice">
        {notice ?? ''}
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {secret && (
        <section className="card" aria-labelledby="secret-title" data-testid="webhook-secret">
          <h2 id="secret-title">Signing secret</h2>
          <p>Copy it now into your receiver: it will not be shown again.</p>
          <p>
            <code className="mono">{secret.value}</code>
          </p>
          <button type="button" className="secondary" onClick={() => setSecret(null)}>
            I have copied it
          </button>
        </section>
      )}
      <RegisterForm
        onRegister={(url, events, description) =>
          act('The endpoint is registered.', async () => {
            const created = await apiFetch<Endpoint & { secret: string }>('/api/webhook-endpoints', {
              method: 'POST',
              json: { url, events, ...(description && { description }) },
              stepUpDescription: `Send the clinic's events to ${url}`,
            });
            setSecret({ endpointId: created.id, value: created.secret });
          })
        }
      />
      {endpoints && endpoints.length === 0 && <p>No endpoints yet.</p>}
      {endpoints?.map((endpoint) => (
        <EndpointCard
          key={endpoint.id}
          endpoint={endpoint}
          act={act}
          onSecret={(value) => setSecret({ endpointId: endpoint.id, value })}
        />
      ))}
    </>
  );
}

function RegisterForm({
  onRegister,
}: {
  onRegister(url: string, events: string[], description: string): Promise<void>;
}) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>(['*']);
  async function submit(event: FormEvent) {
    event.preventDefault();
    await onRegister(url.trim(), events, description.trim());
  }
  const toggle = (type: string, on: boolean) =>
    setEvents((now) => (on ? [...now.filter((t) => t !== '*'), type] : now.filter((t) => t !== type)));
  return (
    <form className="card" onSubmit={submit} aria-labelledby="register-title">
      <h2 id="register-title">Add an endpoint</h2>
      <label htmlFor="webhook-url">Endpoint URL (https)</label>
      <input
        id="webhook-url"
        type="url"
        required
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        placeholder="https://example.com/hooks"
      />
      <label htmlFor="webhook-description">Description (optional)</label>
      <input id="webhook-description" value={description} onChange={(e) => setDescription(e.target.value)} />
      <fieldset>
        <legend>Events</legend>
        <label>
          <input
            type="checkbox"
            checked={events.includes('*')}
            onChange={(e) => setEvents(e.target.checked ? ['*'] : [])}
          />{' '}
          All events
        </label>
        {SUBSCRIBABLE.map((type) => (
          <label key={type}>
            <input
              type="checkbox"
              checked={events.includes(type)}
              disabled={events.includes('*')}
              onChange={(e) => toggle(type, e.target.checked)}
            />{' '}
            <span className="mono">{type}</span>
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={!url.trim() || events.length === 0}>
        Add endpoint
      </button>
    </form>
  );
}

function EndpointCard({
  endpoint,
  act,
  onSecret,
}: {
  endpoint: Endpoint;
  act(done: string, call: () => Promise<void>): Promise<void>;
  onSecret(value: string): void;
}) {
  const when = useClinicTime();
  const [deliveries, setDeliveries] = useState<Delivery[] | null>(null);
  const base = `/api/webhook-endpoints/${encodeURIComponent(endpoint.id)}`;
  const loadDeliveries = useCallback(async () => setDeliveries(await fetchDeliveries(base)), [base]);
  useEffect(() => {
    let current = true;
    void fetchDeliveries(base).then((loaded) => {
      if (current) setDeliveries(loaded);
    });
    return () => {
      current = false;
    };
  }, [base]);

  const change = (done: string, call: () => Promise<void>) =>
    act(done, async () => {
      await call();
      await loadDeliveries();
    });

  return (
    <section className="card" aria-label={`Endpoint ${endpoint.url}`} data-testid={`endpoint-${endpoint.id}`}>
      <h2 className="mono" style={{ overflowWrap: 'anywhere' }}>
        {endpoint.url}
      </h2>
      {endpoint.description && <p>{endpoint.description}</p>}
      {endpoint.status === 'disabled' && (
        <p role="alert" className="error" data-testid="endpoint-disabled">
          Disabled: {endpoint.disabledReason ?? 'turned off by a person'}. Nothing is sent until it is enabled again;
          deliveries waiting for it resume then.
        </p>
      )}
      <p>
        Events: <span className="mono">{endpoint.events.join(', ')}</span>
        {endpoint.previousSecretExpiresAt && (
          <> · The previous secret also signs until {when.dateTime(endpoint.previousSecretExpiresAt)}</>
        )}
      </p>
      <p className="actions">
        <button
          type="button"
          className="secondary"
          onClick={() =>
            change('A test event is on its way.', async () => {
              await apiFetch(`${base}/test`, { method: 'POST' });
            })
          }
        >
          Send test event
        </button>{' '}
        <button
          type="button"
          className="secondary"
          onClick={() =>
            change('The secret is rotated; the previous one signs too for 24 hours.', async () => {
              const rotated = await apiFetch<{ secret: string }>(`${base}/rotate-secret`, {
                method: 'POST',
                stepUpDescription: `Rotate the signing secret of ${endpoint.url}`,
              });
              onSecret(rotated.secret);
            })
          }
        >
          Rotate secret
        </button>{' '}
        <button
          type="button"
          className="secondary"
          onClick={() =>
            change(
              endpoint.status === 'enabled' ? 'The endpoint is disabled.' : 'The endpoint is enabled.',
              async () => {
                await apiFetch(base, {
                  method: 'PATCH',
                  json: { status: endpoint.status === 'enabled' ? 'disabled' : 'enabled' },
                  stepUpDescription: `${endpoint.status === 'enabled' ? 'Disable' : 'Enable'} ${endpoint.url}`,
                });
              },
            )
          }
        >
          {endpoint.status === 'enabled' ? 'Disable' : 'Enable'}
        </button>{' '}
        <button
          type="button"
          className="secondary"
          onClick={() =>
            act('The endpoint is deleted.', async () => {
              await apiFetch(base, { method: 'DELETE', stepUpDescription: `Delete the endpoint ${endpoint.url}` });
            })
          }
        >
          Delete
        </button>
      </p>
      <h3>Recent deliveries</h3>
      {deliveries && deliveries.length === 0 && <p>No deliveries yet.</p>}
      {deliveries && deliveries.length > 0 && (
        <table className="admin-list">
          <caption className="visually-hidden">Deliveries to this endpoint, newest first (at most 100)</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Answer</th>
              <th scope="col">Queued</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr key={d.id} data-testid={`delivery-${d.id}`}>
                <th scope="row" data-label="Event">
                  <span className="mono">{d.type}</span>
                </th>
                <td data-label="Status">
                  {STATUS_WORDS[d.status]}
                  {d.attempt > 1 && <span className="muted"> after {d.attempt} attempts</span>}
                  {d.nextAttemptAt && d.status === 'retrying' && (
                    <span className="muted"> · next {when.dateTime(d.nextAttemptAt)}</span>
                  )}
                </td>
                <td data-label="Answer">
                  {d.responseStatus ? `HTTP ${d.responseStatus}` : d.attempt > 0 ? 'No answer' : '—'}
                  {d.durationMs !== null && <span className="muted"> in {d.durationMs} ms</span>}
                </td>
                <td data-label="Queued">{when.dateTime(d.at)}</td>
                <td data-label="Actions">
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Re-send ${d.type} delivery ${d.id}`}
                    onClick={() =>
                      change('The event is queued again.', async () => {
                        await apiFetch(`${base}/deliveries/${encodeURIComponent(d.id)}/resend`, {
                          method: 'POST',
                          stepUpDescription: `Re-send ${d.type} to ${endpoint.url}`,
                        });
                      })
                    }
                  >
                    Re-send
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
