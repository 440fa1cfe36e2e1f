'use client';
// The CDS Hooks section of the integrations screen (admins only): how clinicians answered our cards in the EHR,
// counted per service, over GET /api/cds-hooks/feedback.
import { useApiRead } from '@/components/billing/use-api-read';
import type { CdsFeedbackCounts } from '@/lib/cds-hooks/record-cds-feedback';
import { useClinicTime } from '@/components/clinic-time';
import { ErrorNote } from '@/components/error-note';

export function CdsFeedbackSection({ discoveryUrl }: { discoveryUrl: string }) {
  const clock = useClinicTime();
  const { data, error } = useApiRead<CdsFeedbackCounts>('/api/cds-hooks/feedback');
  return (
    <section className="card" aria-labelledby="cds-feedback-heading">
      <h2 id="cds-feedback-heading">Coverage cards in the EHR (CDS Hooks)</h2>
      <p className="muted">
        Discovery URL for the EHR administrator: <code data-testid="cds-discovery-url">{discoveryUrl}</code>
      </p>
      {error ? <ErrorNote error={error} /> : null}
      {!data && !error && <p className="muted">Loading…</p>}
      {data && (
        <table data-testid="cds-feedback">
          <caption>Clinicians&apos; feedback on our cards</caption>
          <thead>
            <tr>
              <th scope="col">Service</th>
              <th scope="col">Accepted</th>
              <th scope="col">Overridden</th>
              <th scope="col">Last feedback</th>
            </tr>
          </thead>
          <tbody>
            {data.services.map((s) => (
              <tr key={s.serviceId}>
                <th scope="row">{s.serviceId}</th>
                <td>{s.accepted}</td>
                <td>{s.overridden}</td>
                <td>{s.lastAt ? clock.dateTime(s.lastAt) : 'none yet'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
