// The claim's summary (state, payer, amounts, balance and next action) and its service lines with what each was paid.
import { ClaimStatusBadge } from '@/components/billing/claim-status-badge';
import { useDateFormat } from '@/components/billing/use-date-format';
import { formatDollars } from '@/components/billing/format';
import { nextActionWords } from '@/components/billing/words';
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
      <table className="stack-table">
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Procedure</th>
            <th scope="col">Modifiers</th>
            <th scope="col">Diagnoses</th>
            <th scope="col">Units</th>
            <th scope="col">Date</th>
            <th scope="col" className="billing-amount">
              Charge
            </th>
            <th scope="col" className="billing-amount">
              Paid
            </th>
          </tr>
        </thead>
        <tbody>
          {claim.lines.map((line, i) => (
            <tr key={i}>
              <td data-label="Line">{i + 1}</td>
              <td data-label="Procedure">{line.procedureCode}</td>
              <td data-label="Modifiers">{line.modifiers.length ? line.modifiers.join(', ') : '—'}</td>
              <td data-label="Diagnoses">
                {line.diagnosisPointers.map((p) => claim.diagnoses[p - 1] ?? `#${p}`).join(', ')}
              </td>
              <td data-label="Units">{line.units}</td>
              <td data-label="Date">{fmt.date(line.serviceDate ?? claim.serviceDate)}</td>
              <td data-label="Charge" className="billing-amount">
                {formatDollars(line.chargeCents)}
              </td>
              <td data-label="Paid" className="billing-amount">
                {formatDollars(line.paidCents)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
