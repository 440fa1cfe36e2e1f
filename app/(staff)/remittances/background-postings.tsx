'use client';
// "Posting in the background": the clinic's big ERAs the webhook queued (GET /api/remittances/postings), each with
// claims posted of the file's claims, while they are unfinished. It reads again every few seconds while any is
// still queued, posting or waiting for another attempt, and stops when none is; one that got posted leaves this
// section for the posted list (onPosted reloads it).
import { useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import type { EraPostingList } from '@/lib/remittances/list-era-postings';
import { useDateFormat } from '@/components/billing/use-date-format';
import { useApiRead } from '@/components/billing/use-api-read';
import { ErrorNote } from '@/components/error-note';

type EraPosting = z.infer<typeof EraPostingList>['postings'][number];

const POLL_MS = 3_000;

/** Still moving: it will change without anyone doing anything. */
const isActive = (p: EraPosting) =>
  p.state === 'queued' || p.state === 'posting' || (p.state === 'failed' && p.willRetry);

function stateInWords(p: EraPosting): string {
  if (p.state === 'queued') return 'Waiting to start';
  if (p.state === 'posting') return p.attempts > 1 ? `Posting (attempt ${p.attempts})` : 'Posting';
  if (p.state === 'posted') return 'Posted';
  const attempts = `${p.attempts} attempt${p.attempts === 1 ? '' : 's'}`;
  return p.willRetry
    ? `Attempt ${p.attempts} failed; it will be tried again shortly`
    : `Stopped after ${attempts}; an administrator can retry it from the background jobs (job ${p.id})`;
}

export function BackgroundPostings({ onPosted }: { onPosted: () => void }) {
  const fmt = useDateFormat();
  const [version, setVersion] = useState(0);
  const { data, error } = useApiRead<{ postings: EraPosting[] }>('/api/remittances/postings', version);
  const postings = data?.postings ?? [];
  const unfinished = postings.filter((p) => p.state !== 'posted');
  const polling = postings.some(isActive);

  // Tell the posted list when one we were showing has been posted since the last read.
  const shown = useRef(new Set<string>());
  useEffect(() => {
    const read = data?.postings ?? [];
    if (read.some((p) => p.state === 'posted' && shown.current.has(p.id))) onPosted();
    shown.current = new Set(read.filter((p) => p.state !== 'posted').map((p) => p.id));
  }, [data, onPosted]);

  useEffect(() => {
    if (!polling) return;
    const timer = setTimeout(() => setVersion((v) => v + 1), POLL_MS);
    return () => clearTimeout(timer);
  }, [polling, version]);

  if (unfinished.length === 0 && !error) return null;
  return (
    <section className="card" aria-labelledby="background-postings-title" data-testid="background-postings">
      <h2 id="background-postings-title">Posting in the background</h2>
      <p className="muted">
        Large remittances from the clearinghouse post here first; each joins the list below once posted.
      </p>
      {error ? <ErrorNote error={error} /> : null}
      <ul style={{ listStyle: 'none', padding: 0 }}>
        {unfinished.map((p) => {
          const words = `${p.claimsPosted} of ${p.claimsTotal} claims posted`;
          return (
            <li key={p.id} data-testid={`background-posting-${p.id}`} style={{ marginBottom: '1rem' }}>
              <div>
                <strong>{stateInWords(p)}</strong> <span className="muted">received {fmt.dateTime(p.queuedAt)}</span>
              </div>
              <div
                role="progressbar"
                aria-label={`Remittance received ${fmt.dateTime(p.queuedAt)}`}
                aria-valuemin={0}
                aria-valuemax={p.claimsTotal}
                aria-valuenow={p.claimsPosted}
                aria-valuetext={words}
                style={{ height: '0.75rem', background: '#e5e7eb', borderRadius: '0.375rem', overflow: 'hidden' }}
              >
                <div
                  style={{
                    height: '100%',
                    width: `${p.claimsTotal ? Math.round((100 * p.claimsPosted) / p.claimsTotal) : 0}%`,
                    background: p.state === 'failed' ? '#b91c1c' : '#2563eb',
                  }}
                />
              </div>
              <div>{words}</div>
              {p.state === 'failed' && p.failureReason ? (
                <div className="error" data-testid="background-posting-reason">
                  Why: {p.failureReason}
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
