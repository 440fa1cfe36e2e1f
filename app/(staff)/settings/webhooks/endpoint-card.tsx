'use client';
// One webhook endpoint: its recent deliveries (status, HTTP answer, latency) with re-send, a test event, secret
// rotation (the new secret handed to the screen, which shows it once) and delete.
import { useCallback, useEffect, useState } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { useClinicTime } from '@/components/clinic-time';
import { DataTable } from '@/components/data-table';
import type { WebhookEndpointView as Endpoint } from '@/lib/events/webhook-endpoint-view';

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

/** An endpoint's deliveries; none shown when they cannot be read (the endpoint's own errors are on the page). */
async function fetchDeliveries(base: string): Promise<Delivery[]> {
  try {
    return (await apiFetch<{ deliveries: Delivery[] }>(`${base}/deliveries`)).deliveries;
  } catch {
    return [];
  }
}

export function EndpointCard({
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
      <DataTable
        rows={deliveries}
        stack="admin"
        caption="Deliveries to this endpoint, newest first (at most 100)"
        loading={null}
        empty="No deliveries yet."
        rowKey={(d) => d.id}
        rowProps={(d) => ({ 'data-testid': `delivery-${d.id}` })}
        columns={[
          { header: 'Event', rowHeader: true, cell: (d) => <span className="mono">{d.type}</span> },
          {
            header: 'Status',
            cell: (d) => (
              <>
                {STATUS_WORDS[d.status]}
                {d.attempt > 1 && <span className="muted"> after {d.attempt} attempts</span>}
                {d.nextAttemptAt && d.status === 'retrying' && (
                  <span className="muted"> · next {when.dateTime(d.nextAttemptAt)}</span>
                )}
              </>
            ),
          },
          {
            header: 'Answer',
            cell: (d) => (
              <>
                {d.responseStatus ? `HTTP ${d.responseStatus}` : d.attempt > 0 ? 'No answer' : '—'}
                {d.durationMs !== null && <span className="muted"> in {d.durationMs} ms</span>}
              </>
            ),
          },
          { header: 'Queued', cell: (d) => when.dateTime(d.at) },
          {
            header: 'Actions',
            cell: (d) => (
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
            ),
          },
        ]}
      />
    </section>
  );
}
