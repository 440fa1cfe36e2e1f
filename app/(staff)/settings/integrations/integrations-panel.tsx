'use client';
// The integrations screen's client side: everything goes through /api/emr-sync, as an integrator would call it.
// Each connection says what state it is in and what the operator must do next; "Connect" and "Pull now" appear
// only when they can work, and a pull shows its progress (the connection list's lastRun, polled while the pull
// runs) and then its result.
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'next/navigation';
import { apiFetch } from '@/components/api-fetch';
import { ErrorNote } from '@/components/error-note';
import type { Connection } from './connection';
import { ConnectionRow } from './connection-row';
import { CreateConnection } from './create-connection';
import { PartnerPull } from './partner-pull';

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
        {listError ? <ErrorNote error={listError} /> : null}
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
