'use client';
// A verify answer: its status, the reason and next step for an unknown or inactive one, next steps for the flags of
// an active one, whether it was the patient's coverage on file (with a button that makes it so), and for an active
// answer the benefits, each beside the payer's segments it came from.
import { useState, type ReactNode, type Ref } from 'react';
import type { EligibilityResult } from '@/lib/eligibility/eligibility-result';
import { findPayerName } from '@/lib/eligibility/payer-directory';
import { apiFetch } from '@/components/api-fetch';
import { DataTable } from '@/components/data-table';
import { ErrorNote } from '@/components/error-note';
import { useClinicTime } from '@/components/clinic-time';
import { formatDollars } from '@/components/eligibility/format-dollars';
import { networkLabel } from '@/components/eligibility/network-label';
import { RejectionNote } from '@/components/eligibility/rejection-note';
import { StatusBadge } from '@/components/eligibility/status-badge';
import { attentionReasons, outOfNetworkStep, priorAuthStep } from '@/components/eligibility/needs-attention';
import { serviceTypeList } from '@/components/eligibility/service-type-name';

export function ResultCard({
  ref,
  result,
  asked,
}: {
  ref: Ref<HTMLElement>;
  result: EligibilityResult;
  asked: { patientId: string; memberId: string; dos: string };
}) {
  const clock = useClinicTime();
  const reasons = attentionReasons(result);
  return (
    <section
      ref={ref}
      tabIndex={-1}
      className="card fd-result"
      aria-labelledby="verify-result-heading"
      data-testid="verify-result"
      data-status={result.status}
    >
      <h2 id="verify-result-heading">
        Result: <StatusBadge status={result.status} />
      </h2>
      <p className="muted">
        {result.mode === 'sandbox' ? 'Sandbox answer (demo payer). ' : ''}
        {findPayerName(result.payerId) ?? 'Payer'} ({result.payerId}) · member {result.memberId} · date of service{' '}
        {clock.date(asked.dos)} · checked {clock.dateTime(result.verifiedAt)}
        {result.cached ? ' (a check from the last 24 hours; the payer was not asked again)' : ''}
      </p>
      {result.status === 'unknown' ? (
        <div data-testid="verify-next-step">
          {result.rejection ? (
            <RejectionNote rejection={result.rejection} />
          ) : (
            <p>
              The payer sent no coverage status. <strong>Next step:</strong> confirm coverage with the payer by phone.
            </p>
          )}
        </div>
      ) : null}
      {result.status === 'inactive' ? (
        <div data-testid="verify-next-step">
          <p>
            Coverage is not active on {clock.date(asked.dos)}
            {result.coverageEnd ? `: it ended ${clock.date(result.coverageEnd)}` : ''}.
          </p>
          <p>
            <strong>Next step:</strong> ask the patient for their current insurance card and check it, or collect as
            self-pay.
          </p>
        </div>
      ) : null}
      {result.status === 'active' && (reasons.includes('out-of-network') || reasons.includes('prior-auth')) ? (
        <div data-testid="verify-next-step">
          <h3>Next steps</h3>
          <ul>
            {reasons.includes('out-of-network') ? <li>{outOfNetworkStep()}</li> : null}
            {reasons.includes('prior-auth') ? <li>{priorAuthStep(result)}</li> : null}
          </ul>
        </div>
      ) : null}
      <CoverageOnFileNote result={result} asked={asked} />
      {/* Benefits only for an active answer: an unknown or inactive one has none to show, only defaults. */}
      {result.status === 'active' ? <BenefitTable result={result} /> : null}
    </section>
  );
}

function BenefitTable({ result }: { result: EligibilityResult }) {
  const clock = useClinicTime();
  const evidence = result.evidence ?? {};
  const priorAuth = result.priorAuthCodes.length
    ? `${result.priorAuthRequired ? 'Required' : 'Flagged'} for ${serviceTypeList(result.priorAuthCodes)}`
    : result.priorAuthRequired
      ? 'Required'
      : 'Not flagged';
  const coverage = `${result.coverageStart ? clock.date(result.coverageStart) : 'start not stated'} to ${
    result.coverageEnd ? clock.date(result.coverageEnd) : 'no end date'
  }`;
  // Each row names the evidence keys behind it (lib/x12's field paths).
  const rows: { label: string; value: ReactNode; keys: string[] }[] = [
    { label: 'Member', value: `${result.memberName ?? '—'} · ${result.memberId}`, keys: ['memberName', 'memberId'] },
    { label: 'Plan', value: result.planName ?? '—', keys: ['planName'] },
    { label: 'Group', value: result.groupNumber ?? '—', keys: ['groupNumber'] },
    { label: 'Coverage', value: coverage, keys: ['coverageStart', 'coverageEnd'] },
    { label: 'Network', value: networkLabel(result.network), keys: ['network'] },
    {
      label: 'Deductible (individual)',
      value: formatDollars(result.deductible.individual),
      keys: ['deductible.individual'],
    },
    { label: 'Deductible met', value: formatDollars(result.deductible.met), keys: ['deductible.met'] },
    {
      label: 'Deductible remaining',
      value: formatDollars(result.deductible.remaining),
      keys: ['deductible.remaining'],
    },
    {
      label: 'Out-of-pocket maximum',
      value: formatDollars(result.outOfPocket.individual),
      keys: ['outOfPocket.individual'],
    },
    { label: 'Out-of-pocket met', value: formatDollars(result.outOfPocket.met), keys: ['outOfPocket.met'] },
    {
      label: 'Out-of-pocket remaining',
      value: formatDollars(result.outOfPocket.remaining),
      keys: ['outOfPocket.remaining'],
    },
    { label: 'Primary care copay', value: formatDollars(result.copay.primaryCare), keys: ['copay.primaryCare'] },
    { label: 'Specialist copay', value: formatDollars(result.copay.specialist), keys: ['copay.specialist'] },
    {
      label: 'Coinsurance',
      value: result.coinsurance === null ? '—' : `${result.coinsurance} %`,
      keys: ['coinsurance'],
    },
    { label: 'Prior authorization', value: priorAuth, keys: ['priorAuthRequired', 'priorAuthCodes'] },
  ];
  return (
    <DataTable
      rows={rows}
      label="Benefits"
      empty={null}
      stack="wide"
      rowKey={(row) => row.label}
      columns={[
        { header: 'Benefit', rowHeader: true, cell: (row) => row.label },
        { header: 'Value', cell: (row) => row.value },
        {
          header: "From the payer's answer",
          label: 'From the payer',
          cell: (row) => (
            <div className="mono fd-evidence">
              {[...new Set(row.keys.flatMap((key) => evidence[key] ?? []))].map((segment) => (
                <div key={segment}>{segment}</div>
              ))}
            </div>
          ),
        },
      ]}
    />
  );
}

const COVERAGE_ON_FILE_TEXT = {
  match: "This member id and payer are the patient's coverage on file.",
  mismatch:
    "This member id or payer is not the patient's coverage on file: a claim needs a check of the coverage on file.",
  none: 'The patient has no coverage on file: a claim needs a check of the coverage on file.',
} as const;

/** Whether the check was of the patient's coverage on file; when not, a button that makes it so. */
function CoverageOnFileNote({
  result,
  asked,
}: {
  result: EligibilityResult;
  asked: { patientId: string; memberId: string } | null;
}) {
  const [state, setState] = useState<{ busy: boolean; saved: boolean; error: unknown }>({
    busy: false,
    saved: false,
    error: null,
  });
  async function saveAsCoverage() {
    if (!asked) return;
    setState({ busy: true, saved: false, error: null });
    try {
      const body = {
        payerId: result.payerId,
        memberId: asked.memberId,
        ...(result.groupNumber ? { groupNumber: result.groupNumber } : {}),
      };
      await apiFetch(`/api/patients/${encodeURIComponent(asked.patientId)}/coverage`, { method: 'PUT', json: body });
      setState({ busy: false, saved: true, error: null });
    } catch (failure) {
      setState({ busy: false, saved: false, error: failure });
    }
  }
  if (result.coverageOnFile === 'match' || state.saved) {
    return (
      <p data-testid="coverage-on-file" data-coverage="match">
        {state.saved ? 'Saved as the coverage on file.' : COVERAGE_ON_FILE_TEXT.match}
      </p>
    );
  }
  return (
    <div data-testid="coverage-on-file" data-coverage={result.coverageOnFile}>
      <p>{COVERAGE_ON_FILE_TEXT[result.coverageOnFile]}</p>
      {asked ? (
        <button type="button" onClick={saveAsCoverage} disabled={state.busy}>
          {state.busy ? 'Saving…' : `Update coverage on file: member ${asked.memberId}, payer ${result.payerId}`}
        </button>
      ) : null}
      {state.error ? <ErrorNote error={state.error} otherwise="The coverage could not be saved. Try again." /> : null}
    </div>
  );
}

/** One sentence a screen reader says when the answer arrives. */
export function announce(result: EligibilityResult): string {
  const status = { active: 'Active', inactive: 'Inactive', unknown: 'Unknown' }[result.status];
  const parts = [`Eligibility result: ${status}.`];
  if (result.status === 'unknown') parts.push(result.rejection ? `${result.rejection.reason}.` : 'No status sent.');
  if (result.status === 'active' && result.network === 'OUT') parts.push('Out of network.');
  if (result.priorAuthRequired) parts.push('Prior authorization required.');
  if (result.coverageOnFile !== 'match') parts.push('Not the coverage on file.');
  return parts.join(' ');
}
