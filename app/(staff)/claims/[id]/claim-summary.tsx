// The claim's summary (state, payer, amounts, balance and next action) and its service lines with what each was paid.
import { ClaimStatusBadge } from '@/components/billing/claim-status-badge';
import { useDateFormat } from '@/components/billing/use-date-format';
import { formatDollars } from '@/components/billing/format';
import { nextActionWords } from '@/components/billing/words';
import { DataTable } from '@/components/data-table';
import type { ClaimDetail } from '@/lib/claims/get-claim';

export function ClaimSummary({ claim }: { claim: ClaimDetail }) {
  const fmt = useDateFormat();
  return (
    <section className="card" aria-labelledby="claim-summary-title">
      <h2 id="claim-summary-title">Summary</h2>
      <dl className="billing-summary">
        <div>
          <dt>State</dt>
          <dd data-testid="claim-status" data-status={claim.status}>
            <ClaimStatusBadge status={claim.status} />
          </dd>
        </div>
        {claim.statusReason ? (
          <div>
            <dt>Why</dt>
            <dd data-testid="claim-status-reason">{claim.statusReason}</dd>
          </div>
        ) : null}
        <div>
          <dt>Patient</dt>
          <dd data-testid="claim-patient-name">{claim.patientName ?? claim.patientId}</dd>
        </div>
        <div>
          <dt>Date of birth</dt>
          <dd data-testid="claim-patient-birth-date">{fmt.date(claim.patientBirthDate)}</dd>
        </div>
        <div>
          <dt>Payer</dt>
          <dd>
            {claim.payerName ?? '—'}
            {claim.payerId ? <span className="muted"> (payer id {claim.payerId})</span> : null}
          </dd>
        </div>
        <div>
          <dt>Member id</dt>
          <dd>{claim.memberId ?? '—'}</dd>
        </div>
        <div>
          <dt>Date of service</dt>
          <dd>{fmt.date(claim.serviceDate)}</dd>
        </div>
        <div>
          <dt>Place of service</dt>
          <dd>{claim.placeOfService}</dd>
        </div>
        <div>
          <dt>Diagnoses</dt>
          <dd>{claim.diagnoses.length ? claim.diagnoses.join(', ') : '—'}</dd>
        </div>
        <div>
          <dt>Total charge</dt>
          <dd>{formatDollars(claim.totalChargeCents)}</dd>
        </div>
        <div>
          <dt>Paid by the payer</dt>
          <dd data-testid="claim-paid">{formatDollars(claim.paidCents)}</dd>
        </div>
        <div>
          <dt>Patient responsibility</dt>
          <dd>{formatDollars(claim.patientResponsibilityCents)}</dd>
        </div>
        <div>
          <dt>Adjusted</dt>
          <dd>{formatDollars(claim.adjustmentCents)}</dd>
        </div>
        {claim.writtenOffCents ? (
          <div>
            <dt>Written off</dt>
            <dd data-testid="claim-written-off">{formatDollars(claim.writtenOffCents)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Balance</dt>
          <dd data-testid="claim-balance">{formatDollars(claim.balanceCents)}</dd>
        </div>
        {claim.nextAction ? (
          <div>
            <dt>Next action</dt>
            <dd data-testid="claim-next-action" data-action={claim.nextAction}>
              <strong>{nextActionWords(claim.nextAction)}.</strong> {claim.nextActionReason}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Submitted</dt>
          <dd>{fmt.dateTime(claim.submittedAt)}</dd>
        </div>
      </dl>
    </section>
  );
}

export function ClaimLines({ claim }: { claim: ClaimDetail }) {
  const fmt = useDateFormat();
  return (
    <section className="card" aria-labelledby="claim-lines-title">
      <h2 id="claim-lines-title">Service lines</h2>
      <DataTable
        rows={claim.lines}
        empty="No service lines."
        rowKey={(line) => String(line.position)}
        columns={[
          { header: 'Line', cell: (line) => line.position },
          { header: 'Procedure', cell: (line) => line.procedureCode },
          { header: 'Modifiers', cell: (line) => (line.modifiers.length ? line.modifiers.join(', ') : '—') },
          {
            header: 'Diagnoses',
            cell: (line) => line.diagnosisPointers.map((p) => claim.diagnoses[p - 1] ?? `#${p}`).join(', '),
          },
          { header: 'Units', cell: (line) => line.units },
          { header: 'Date', cell: (line) => fmt.date(line.serviceDate ?? claim.serviceDate) },
          { header: 'Charge', amount: true, cell: (line) => formatDollars(line.chargeCents) },
          { header: 'Paid', amount: true, cell: (line) => formatDollars(line.paidCents) },
        ]}
      />
    </section>
  );
}
