'use client';
// The webhooks screen: the clinic's endpoints, each with its recent deliveries (status, HTTP answer, latency),
// re-send, a test event, secret rotation and delete; a form to register one. A secret is shown once, right after
// creation or rotation, with the words that it will not be shown again. Changes go through apiFetch with a
// description, so the step-up dialog says what it confirms; a cancelled step-up changes nothing.
import { useCallback, useEffect, useState } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { ErrorNote } from '@/components/error-note';
import type { WebhookEndpointView as Endpoint } from '@/lib/events/webhook-endpoint-view';
import { RegisterForm } from './register-form';
import { EndpointCard } from './endpoint-card';

async function fetchEndpoints(): Promise<Endpoint[] | { error: unknown }> {
  try {
    return (await apiFetch<{ endpoints: Endpoint[] }>('/api/webhook-endpoints')).endpoints;
  } catch (e) {
    return { error: e };
  }
}

export function WebhooksScreen() {
  const [endpoints, setEndpoints] = useState<Endpoint[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ endpointId: string; value: string } | null>(null);

  const apply = useCallback((loaded: Endpoint[] | { error: unknown }) => {
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
      setError(e);
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
      {error ? <ErrorNote error={error} /> : null}
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
