// What happened to a claim: its timeline in words, and the X12 documents sent and received (raw, collapsed).
import Link from 'next/link';
import { detailWords } from '@/components/billing/detail-words';
import { useDateFormat } from '@/components/billing/use-date-format';
import { claimStatusWords, DOCUMENT_WORDS, timelineWords } from '@/components/billing/words';
import type { ClaimEventView as TimelineEvent } from '@/lib/claims/get-claim';
import type { TransmissionView as Transmission } from '@/lib/claims/list-transmissions';

export function ClaimTimeline({ events }: { events: TimelineEvent[] }) {
  const fmt = useDateFormat();
  return (
    <section className="card" aria-labelledby="claim-timeline-title">
      <h2 id="claim-timeline-title">Timeline</h2>
      {events.length ? (
        <ol className="billing-timeline" data-testid="claim-timeline">
          {events.map((event, i) => {
            const detail = detailWords(event.detail);
            return (
              <li key={i} data-kind={event.kind}>
                <strong>{timelineWords(event.kind, event.toStatus)}</strong>{' '}
                <span className="muted">{fmt.dateTime(event.at)}</span>
                {event.toStatus && event.toStatus !== event.fromStatus ? (
                  <div>
                    {event.fromStatus ? `${claimStatusWords(event.fromStatus)} → ` : ''}
                    {claimStatusWords(event.toStatus)}
                  </div>
                ) : null}
                {detail ? <div className="muted">{detail}</div> : null}
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="muted">Nothing has happened to this claim yet.</p>
      )}
    </section>
  );
}

export function ClaimTransmissions({ transmissions }: { transmissions: Transmission[] }) {
  const fmt = useDateFormat();
  return (
    <section className="card" aria-labelledby="claim-transmissions-title">
      <h2 id="claim-transmissions-title">Documents sent and received</h2>
      {transmissions.length ? (
        <ul style={{ listStyle: 'none', padding: 0 }} data-testid="claim-transmissions">
          {transmissions.map((t, i) => (
            <li key={i}>
              <details>
                <summary>
                  {t.direction === 'out' ? 'Sent: ' : 'Received: '}
                  {DOCUMENT_WORDS[t.kind] ?? t.kind} · {fmt.dateTime(t.at)}{' '}
                  <span className="muted">(control number {t.controlNumber})</span>
                </summary>
                <pre className="billing-x12">{t.x12.replace(/~(?!\r?\n)/g, '~\n')}</pre>
              </details>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No documents yet.</p>
      )}
      <p>
        <Link href="/claims">Back to the claims</Link>
      </p>
    </section>
  );
}
