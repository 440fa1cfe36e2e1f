'use client';
// The CDS Hooks section of the integrations screen (admins only): how clinicians answered our cards in the EHR,
// counted per service, over GET /api/cds-hooks/feedback.
import { useApiRead } from '@/components/billing/use-api-read';
import type { CdsFeedbackCounts } from '@/lib/cds-hooks/record-cds-feedback';
import { useClinicTime } from '@/components/clinic-time';
import { DataTable } from '@/components/data-table';
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
      <h3>Clinicians&apos; feedback on our cards</h3>
      {error ? (
        <ErrorNote error={error} />
      ) : (
        <DataTable
          rows={data?.services ?? null}
          label="Clinicians' feedback on our cards"
          empty={null}
          stack="admin"
          rowKey={(s) => s.serviceId}
          columns={[
            { header: 'Service', rowHeader: true, cell: (s) => s.serviceId },
            { header: 'Accepted', cell: (s) => s.accepted },
            { header: 'Overridden', cell: (s) => s.overridden },
            { header: 'Last feedback', cell: (s) => (s.lastAt ? clock.dateTime(s.lastAt) : 'none yet') },
          ]}
        />
      )}
    </section>
  );
}
