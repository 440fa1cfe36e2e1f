'use client';
// The claims list with state filters (chips): each change asks GET /api/claims?status=a,b again. No chip
// chosen shows every state; a link may choose some (`?status=a,b`).
import { useState } from 'react';
import Link from 'next/link';
import { ClaimStatusBadge } from '@/components/billing/claim-status-badge';
import { useDateFormat } from '@/components/billing/use-date-format';
import { formatDollars } from '@/components/billing/format';
import { useApiRead } from '@/components/billing/use-api-read';
import { CLAIM_STATUSES, claimStatusWords } from '@/components/billing/words';
import { DataTable } from '@/components/data-table';
import { ErrorNote } from '@/components/error-note';
import { useHydrated } from '@/components/use-hydrated';

type ClaimRow = {
  claimId: string;
  patientId: string;
  patientName: string | null;
  status: string;
  totalChargeCents: number;
  serviceDate: string;
  payerName?: string | null;
  payerId?: string | null;
  submittedAt: string | null;
  statusReason?: string | null;
};

/** `initialStatuses`: the states a link asked for (`/claims?status=denied`, from the home screen's counts). */
export function ClaimsQueue({ initialStatuses = [] }: { initialStatuses?: readonly string[] }) {
  const fmt = useDateFormat();
  const [statuses, setStatuses] = useState<string[]>(() => initialStatuses.filter((s) => CLAIM_STATUSES.includes(s)));
  const query = statuses.length ? `?status=${encodeURIComponent(statuses.join(','))}` : '';
  const { data, error } = useApiRead<{ claims: ClaimRow[] }>(`/api/claims${query}`);
  const claims = data?.claims ?? null;
  const hydrated = useHydrated();

  function toggle(status: string) {
    setStatuses((now) => (now.includes(status) ? now.filter((s) => s !== status) : [...now, status]));
  }

  return (
    <section className="card" aria-labelledby="claims-queue-title">
      <h2 id="claims-queue-title">Work queue</h2>
      {/* Held until hydrated: a box ticked before then would not filter the list it says it filters. */}
      <fieldset className="chip-filter" disabled={!hydrated}>
        <legend>Show claims that are</legend>
        {CLAIM_STATUSES.map((status) => (
          <label key={status}>
            <input type="checkbox" checked={statuses.includes(status)} onChange={() => toggle(status)} />
            {claimStatusWords(status)}
          </label>
        ))}
      </fieldset>
      <p role="status" className="muted" data-testid="claims-count">
        {claims === null
          ? 'Loading…'
          : `${claims.length} claim${claims.length === 1 ? '' : 's'}${statuses.length ? ' in the chosen states' : ''}`}
      </p>
      {error ? <ErrorNote error={error} /> : null}
      <DataTable
        rows={claims}
        loading={null}
        empty={null}
        csv={{ apiPath: `/api/claims${query}`, what: 'these claims' }}
        rowKey={(claim) => claim.claimId}
        rowProps={(claim) => ({ 'data-testid': `claim-row-${claim.claimId}`, 'data-status': claim.status })}
        columns={[
          {
            header: 'Claim',
            cell: (claim) => <Link href={`/claims/${encodeURIComponent(claim.claimId)}`}>{claim.claimId}</Link>,
          },
          { header: 'Patient', cell: (claim) => claim.patientName ?? claim.patientId },
          { header: 'Date of service', cell: (claim) => fmt.date(claim.serviceDate) },
          { header: 'Payer', cell: (claim) => claim.payerName ?? claim.payerId ?? '—' },
          { header: 'Charge', amount: true, cell: (claim) => formatDollars(claim.totalChargeCents) },
          {
            header: 'State',
            cell: (claim) => (
              <>
                <ClaimStatusBadge status={claim.status} />
                {claim.statusReason ? <div className="muted">{claim.statusReason}</div> : null}
              </>
            ),
          },
          { header: 'Submitted', cell: (claim) => fmt.dateTime(claim.submittedAt) },
        ]}
      />
    </section>
  );
}
