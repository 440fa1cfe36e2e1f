// One appointment of the day's roster: the patient and time, its check's status with what needs attention and the
// next step in words (or why it was not checked), and "Bill this visit" where there is one to bill.
import type { AppointmentListItem as Appointment } from '@/lib/appointments/list-appointments';
import type { RosterResult } from '@/lib/eligibility/check-roster';
import { useClinicTime } from '@/components/clinic-time';
import { formatDollars } from '@/components/eligibility/format-dollars';
import { networkLabel } from '@/components/eligibility/network-label';
import { RejectionNote } from '@/components/eligibility/rejection-note';
import { StatusBadge } from '@/components/eligibility/status-badge';
import {
  ATTENTION_LABEL,
  attentionReasons,
  coverageMismatchStep,
  outOfNetworkStep,
  priorAuthStep,
} from '@/components/eligibility/needs-attention';
import { serviceTypeList } from '@/components/eligibility/service-type-name';

const SKIP_WORDS: Record<string, string> = {
  NO_MEMBER_ID: 'Not checked: no insurance on file (self-pay). Ask for an insurance card or collect as self-pay.',
  NO_PAYER_ID: 'Not checked: no payer on file. Add the payer to the patient’s coverage and check again.',
};

export function RosterRow({
  appointment,
  result,
  pending,
  canBill,
}: {
  appointment: Appointment;
  result?: RosterResult;
  pending: boolean;
  canBill: boolean;
}) {
  const clock = useClinicTime();
  const fields = result?.result;
  const reasons = attentionReasons(fields);
  return (
    <tr
      data-testid={`roster-row-${appointment.patientId}`}
      data-status={result ? (result.skipped ? 'skipped' : fields?.status) : pending ? 'pending' : 'not-checked'}
      data-attention={reasons.length ? reasons.join(' ') : undefined}
    >
      <td data-label="Time">{clock.time(appointment.start)}</td>
      <td data-label="Patient">
        <div>
          <a href={`/patients/${encodeURIComponent(appointment.patientId)}`}>{appointment.patientName}</a>
        </div>
        <div className="muted mono">
          {appointment.memberId ?? 'Self-pay'}
          {appointment.payerName ? ` · ${appointment.payerName}` : ''}
        </div>
        {canBill ? (
          <div>
            <a href={`/claims/new?appointmentId=${encodeURIComponent(appointment.id)}`}>Bill this visit</a>
          </div>
        ) : null}
      </td>
      <td data-label="Status">
        {fields ? (
          <StatusBadge status={fields.status} />
        ) : result?.skipped ? (
          <span className="muted" data-status="skipped">
            Skipped
          </span>
        ) : pending ? (
          <span className="muted">Checking…</span>
        ) : (
          '—'
        )}
        {reasons.length ? (
          <div className="fd-attention">Needs attention: {reasons.map((r) => ATTENTION_LABEL[r]).join(', ')}</div>
        ) : null}
        {fields?.cached ? <div className="muted">from a check at {clock.time(fields.verifiedAt)}</div> : null}
        {result?.changedSinceLastCheck ? (
          <div className="fd-attention" data-changed="true">
            Changed since the last check (status, network or prior authorization)
          </div>
        ) : null}
      </td>
      <td data-label="Network">{fields ? networkLabel(fields.network) : '—'}</td>
      <td data-label="Copay (primary / specialist)">
        {fields ? `${formatDollars(fields.copay.primaryCare)} / ${formatDollars(fields.copay.specialist)}` : '—'}
      </td>
      <td data-label="Deductible remaining">{fields ? formatDollars(fields.deductible.remaining) : '—'}</td>
      <td data-label="Prior authorization">
        {/* Only an active answer speaks to prior authorization: an inactive or unknown one says nothing of it. */}
        {fields?.priorAuthRequired ? <strong>Required</strong> : fields?.status === 'active' ? 'Not flagged' : '—'}
        {fields?.priorAuthCodes.length ? <div className="muted">{serviceTypeList(fields.priorAuthCodes)}</div> : null}
      </td>
      <td data-label="What to do">
        {fields?.rejection ? <RejectionNote rejection={fields.rejection} /> : null}
        {fields?.status === 'inactive' ? (
          <div>
            Coverage is not active on this date{fields.coverageEnd ? ` (ended ${clock.date(fields.coverageEnd)})` : ''}.
            Ask for current insurance or collect as self-pay.
          </div>
        ) : null}
        {fields?.status === 'unknown' && !fields.rejection ? (
          <div>The payer sent no coverage status. Confirm coverage with the payer by phone.</div>
        ) : null}
        {reasons.includes('out-of-network') ? <div>{outOfNetworkStep()}</div> : null}
        {reasons.includes('prior-auth') && fields ? <div>{priorAuthStep(fields)}</div> : null}
        {reasons.includes('coverage-mismatch') ? <div>{coverageMismatchStep()}</div> : null}
        {result?.skipped ? <div>{SKIP_WORDS[result.skipReason ?? ''] ?? 'Not checked.'}</div> : null}
      </td>
    </tr>
  );
}
