// The claim's summary (state, payer, amounts, balance and next action) and its service lines with what each was paid.
import { ClaimStatusBadge } from '@/components/billing/claim-status-badge';
import { useDateFormat } from '@/components/billing/use-date-format';
import { formatDollars } from '@/components/billing/format';
import { nextActionWords } from '@/components/billing/words';
import { DataTable } from '@/components/data-table';
import type { ClaimDetail } from '@/lib/claims/get-claim';
import { SummaryItem, SummaryList } from '@/components/summary-list';

export function ClaimSummary({ claim }: { claim: ClaimDetail }) {
  const fmt = useDateFormat();
  return (
    <section className="card" aria-labelledby="claim-summary-title">
      <h2 id="claim-summary-title">Summary</h2>
      <SummaryList>
        <SummaryItem term="State" testId="claim-status" valueProps={{ 'data-status': claim.status }}>
          <ClaimStatusBadge status={claim.status} />
        </SummaryItem>
        {claim.statusReason ? (
          <SummaryItem term="Why" testId="claim-status-reason">
            {claim.statusReason}
          </SummaryItem>
        ) : null}
        <SummaryItem term="Patient" testId="claim-patient-name">
          {claim.patientName ?? claim.patientId}
        </SummaryItem>
        <SummaryItem term="Date of birth" testId="claim-patient-birth-date">
          {fmt.date(claim.patientBirthDate)}
        </SummaryItem>
        <SummaryItem term="Payer">
          {claim.payerName ?? '—'}
          {claim.payerId ? <span className="muted"> (payer id {claim.payerId})</span> : null}
        </SummaryItem>
        <SummaryItem term="Member id">{claim.memberId ?? '—'}</SummaryItem>
        <SummaryItem term="Date of service">{fmt.date(claim.serviceDate)}</SummaryItem>
        <SummaryItem term="Place of service">{claim.placeOfService}</SummaryItem>
        <SummaryItem term="Diagnoses">{claim.diagnoses.length ? claim.diagnoses.join(', ') : '—'}</SummaryItem>
        <SummaryItem term="Total charge">{formatDollars(claim.totalChargeCents)}</SummaryItem>
        <SummaryItem term="Paid by the payer" testId="claim-paid">
          {formatDollars(claim.paidCents)}
        </SummaryItem>
        <SummaryItem term="Patient responsibility">{formatDollars(claim.patientResponsibilityCents)}</SummaryItem>
        <SummaryItem term="Adjusted">{formatDollars(claim.adjustmentCents)}</SummaryItem>
        {claim.writtenOffCents ? (
          <SummaryItem term="Written off" testId="claim-written-off">
            {formatDollars(claim.writtenOffCents)}
          </SummaryItem>
        ) : null}
        <SummaryItem term="Balance" testId="claim-balance">
          {formatDollars(claim.balanceCents)}
        </SummaryItem>
        {claim.nextAction ? (
          <SummaryItem term="Next action" testId="claim-next-action" valueProps={{ 'data-action': claim.nextAction }}>
            <strong>{nextActionWords(claim.nextAction)}.</strong> {claim.nextActionReason}
          </SummaryItem>
        ) : null}
        <SummaryItem term="Submitted">{fmt.dateTime(claim.submittedAt)}</SummaryItem>
      </SummaryList>
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
