// `coverage-check` on `appointment-book` (DECISIONS "CDS Hooks"): one card about the matched patient's coverage on
// file, from the newest eligibility check of that coverage within 24 h, else a live verify (cached as any verify).
// Indicators: active → info; active with prior authorization or out of network → warning; inactive → critical;
// unknown (a payer AAA, or the payer unreachable) → warning with the reason. Scoping and audit are invoke's.
import { equalsIgnoringCase } from '../db/text-filters';
import { isAppError } from '../errors';
import { CACHE_TTL_MS } from '../eligibility/eligibility-check-store';
import { EligibilityFields } from '../eligibility/eligibility-result';
import type { EligibilityDeps } from '../eligibility/check-eligibility';
import type { PayerTransport } from '../eligibility/payer-transport';
import { verifyEligibility } from '../eligibility/verify-eligibility';
import { buildCard, dollars, type CdsCard, type CdsLink } from './cds-card';
import type { EhrCoverage, MatchedPatient } from './match-patient';

export type CoverageCheckDeps = Omit<EligibilityDeps, 'payer'> & {
  /** Asked for only when a live verify is needed (production without CORE throws there, and the card says so). */
  payer: () => PayerTransport;
};

export type CdsClinic = { id: string; orgId: string; name: string; billingNpi: string | null; timeZone: string };

const Answer = EligibilityFields.pick({
  status: true,
  payerId: true,
  memberId: true,
  planName: true,
  deductible: true,
  copay: true,
  coverageEnd: true,
  priorAuthRequired: true,
  priorAuthCodes: true,
  network: true,
  rejection: true,
});
type Answer = ReturnType<typeof Answer.parse> & { checkedAt: Date };

export function verifyLink(appUrl: string, patientId: string): CdsLink {
  return {
    label: 'Open the eligibility check',
    url: `${appUrl}/eligibility/verify?patientId=${encodeURIComponent(patientId)}`,
    type: 'absolute',
  };
}

export async function checkCoverageCard(
  deps: CoverageCheckDeps,
  call: {
    clinic: CdsClinic;
    patient: MatchedPatient;
    ehrCoverages: EhrCoverage[];
    correlationId: string;
    issuer: string;
    appUrl: string;
  },
): Promise<CdsCard> {
  const { patient, appUrl } = call;
  const links = [verifyLink(appUrl, patient.id)];
  const coverage = patient.coverage;
  if (!coverage) {
    return buildCard({
      summary: 'No insurance coverage on file: self-pay unless the patient brings a card',
      indicator: 'info',
      detail: 'Add the coverage on the patient record to check eligibility before the visit.',
      links,
    });
  }
  const mismatch =
    call.ehrCoverages.length > 0 &&
    !call.ehrCoverages.some(
      (c) =>
        c.payerId.toUpperCase() === coverage.payerId.toUpperCase() &&
        c.memberId.toUpperCase() === coverage.memberId.toUpperCase(),
    );
  const mismatchNote = mismatch
    ? `\n\nThe EHR's coverage differs from the coverage on file (member ${coverage.memberId}); update one of them.`
    : '';
  const payerName = coverage.payerName ?? coverage.payerId;

  let answer: Answer | null;
  try {
    answer = (await newestCheck(deps, call.clinic.id, patient)) ?? (await liveCheck(deps, call));
  } catch (error) {
    if (!isAppError(error)) throw error;
    return buildCard({
      summary: `Coverage with ${payerName} could not be checked: ${error.message}`,
      indicator: 'warning',
      detail: `Check eligibility again before the visit.${mismatchNote}`,
      links,
    });
  }
  return cardFor(answer, payerName, mismatchNote, links);
}

function cardFor(answer: Answer, payerName: string, mismatchNote: string, links: CdsLink[]): CdsCard {
  const checked = `Checked ${answer.checkedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, member ${answer.memberId}.`;
  if (answer.status === 'inactive') {
    const ended = answer.coverageEnd ? ` (ended ${answer.coverageEnd})` : '';
    return buildCard({
      summary: `Coverage with ${payerName} is inactive${ended}`,
      indicator: 'critical',
      detail: `The payer reports no active coverage for this member. Ask for current insurance or set up self-pay.\n\n${checked}${mismatchNote}`,
      links,
    });
  }
  if (answer.status === 'unknown') {
    const reason = answer.rejection?.reason ?? 'the payer did not say';
    const followUp = answer.rejection?.followUp ? ` ${answer.rejection.followUp}.` : '';
    return buildCard({
      summary: `Coverage with ${payerName} could not be confirmed: ${reason}`,
      indicator: 'warning',
      detail: `The payer rejected the eligibility inquiry: ${reason}.${followUp}\n\n${checked}${mismatchNote}`,
      links,
    });
  }
  const facts = [
    answer.planName && `Plan: ${answer.planName}`,
    answer.copay.primaryCare !== null && `Copay, primary care: ${dollars(answer.copay.primaryCare)}`,
    answer.copay.specialist !== null && `Copay, specialist: ${dollars(answer.copay.specialist)}`,
    answer.deductible.remaining !== null &&
      `Deductible remaining: ${dollars(answer.deductible.remaining)}` +
        (answer.deductible.individual !== null ? ` of ${dollars(answer.deductible.individual)}` : ''),
  ].filter(Boolean);
  const detail = `${facts.map((f) => `- ${f}`).join('\n')}\n\n${checked}${mismatchNote}`;
  if (answer.priorAuthRequired) {
    // A bare "(30)" means nothing to a clinician: the codes the payer flagged go in the detail, named for what
    // they are (ELIGIBILITY.md: EB03 service type codes, then EB13 procedure codes).
    const flagged = answer.priorAuthCodes.map((code) =>
      code.length <= 2 ? `service type ${code}` : `procedure ${code}`,
    );
    return buildCard({
      summary: `Coverage with ${payerName} is active; prior authorization required`,
      indicator: 'warning',
      detail:
        (flagged.length ? `Prior authorization flagged by the payer for ${flagged.join(', ')}.\n\n` : '') + detail,
      links,
    });
  }
  if (answer.network === 'OUT') {
    return buildCard({
      summary: `Coverage with ${payerName} is active, but this clinic is out of network`,
      indicator: 'warning',
      detail: `Out-of-network benefits and costs apply; tell the patient before the visit.\n\n${detail}`,
      links,
    });
  }
  const copay = answer.copay.primaryCare ?? answer.copay.specialist;
  return buildCard({
    summary:
      `Coverage with ${payerName} is active` +
      (copay !== null ? `; copay ${dollars(copay)}` : '') +
      (answer.deductible.remaining !== null ? `; deductible remaining ${dollars(answer.deductible.remaining)}` : ''),
    indicator: mismatchNote ? 'warning' : 'info',
    detail,
    links,
  });
}

/** The newest check of the coverage on file within 24 h (transient rejections are not reused). */
async function newestCheck(deps: CoverageCheckDeps, clinicId: string, patient: MatchedPatient): Promise<Answer | null> {
  const coverage = patient.coverage!;
  const rows = await deps.db.eligibilityCheck.findMany({
    where: {
      clinicId,
      patientId: patient.id,
      payerId: equalsIgnoringCase(coverage.payerId),
      memberId: equalsIgnoringCase(coverage.memberId),
      cacheable: true,
      createdAt: { gte: new Date(deps.clock().getTime() - CACHE_TTL_MS) },
    },
    orderBy: { createdAt: 'desc' },
    take: 1,
    select: { result: true, createdAt: true },
  });
  const row = rows[0];
  if (!row) return null;
  const parsed = Answer.safeParse(row.result);
  return parsed.success ? { ...parsed.data, checkedAt: row.createdAt } : null;
}

async function liveCheck(
  deps: CoverageCheckDeps,
  call: { clinic: CdsClinic; patient: MatchedPatient; correlationId: string; issuer: string },
): Promise<Answer> {
  const { clinic, patient } = call;
  const coverage = patient.coverage!;
  const payer = deps.payer();
  const result = await verifyEligibility(
    { ...deps, payer },
    {
      clinicId: clinic.id,
      orgId: clinic.orgId,
      userId: cdsUserId(call.issuer),
      correlationId: call.correlationId,
      clinicTimeZone: clinic.timeZone,
    },
    {
      patientId: patient.id,
      firstName: patient.firstName,
      lastName: patient.lastName,
      dob: patient.birthDate,
      memberId: coverage.memberId,
      payerName: coverage.payerName ?? coverage.payerId,
      payerId: coverage.payerId,
      npi: clinic.billingNpi ?? '',
      serviceType: '30',
      explain: false,
    },
  );
  return { ...Answer.parse(result), checkedAt: new Date(result.verifiedAt) };
}

/** Who the audit and eligibility rows name for a CDS call: the EHR, not a staff user. */
export const cdsUserId = (issuer: string) => `cds:${issuer}`.slice(0, 300);
