// One eligibility check for one member, shared by verify and the roster: the 24 h cache, the 270 out through
// the payer port, the 271 read with lib/x12's one mapping, and the EligibilityCheck row that records it (the
// claims precondition reads those rows). It does not scope patients or log PHI access: its callers do,
// before they call it.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db';
import { AppError, isAppError } from '../errors';
import { build270 } from '../x12/build-270';
import { read271, type Response271 } from '../x12/read-271';
import { readEligibility, type EligibilityFindings } from '../x12/read-eligibility';
import { X12ReadError } from '../x12/x12-read-error';
import { compareCoverage, type Coverage, type CoverageOnFile } from './coverage-on-file';
import { databaseCheckStore, type EligibilityCheckStore } from './eligibility-check-store';
import { EligibilityFields, type Rejection } from './eligibility-result';
import type { PayerTransport } from './payer-transport';

const SANDBOX_SENDER_ID = 'CLINICREVENUE';
const SANDBOX_RECEIVER_ID = 'SANDBOXPAYER';

// AAA03 42 (unable to respond at current time) and 80 (no response received) say nothing about the member.
const TRANSIENT_REASON_CODES = new Set(['42', '80']);

export type EligibilityDeps = {
  db: Db;
  clock: Clock;
  payer: PayerTransport;
  /** The live transport's ids also go in the 270's ISA06/ISA08 and GS02/GS03. */
  config: Pick<Config, 'eligibilityCore'>;
};

/** EligibilityFindings with our API's rejection (loop null when no 271 AAA is behind it). */
type Findings = Omit<EligibilityFindings, 'rejection'> & { rejection: Rejection | null };

/** Who asked: a person (verify, roster), or the evening pre-verification schedule. */
export type CheckSource = 'staff' | 'schedule';

export type EligibilityInquiry = {
  clinicId: string;
  userId: string;
  /** Recorded on the check row (default staff). */
  source?: CheckSource;
  patientId: string;
  correlationId: string;
  payer: { id: string; name: string };
  /** The name is only needed for a 270; a function defers its lookup past the cache (a hit never sends one). */
  provider: { npi: string; name: string | (() => Promise<string>) };
  subscriber: { memberId: string; firstName: string; lastName: string; /** YYYY-MM-DD */ birthDate: string };
  /** X12 service type codes, one EQ each; the first one is the "requested type" of the mapping rules. */
  serviceTypeCodes: string[];
  /** YYYY-MM-DD */
  dateOfService: string;
  /** The patient's coverage on file as it stands now: the answer says whether it asked about that coverage. */
  coverage: Coverage | null;
};

export type EligibilityOutcome = { fields: EligibilityFields; evidence: Record<string, string[]> };

const Evidence = z.record(z.string(), z.array(z.string()));
/**
 * What is stored in EligibilityCheck.result: everything but the per-response `cached`, `verifiedAt` and
 * `coverageOnFile` (compared with the coverage on file at the time of each answer, so never stale).
 */
const StoredResult = EligibilityFields.omit({ cached: true, verifiedAt: true, coverageOnFile: true }).extend({
  evidence: Evidence.default({}),
});

/**
 * The 271 answer for one inquiry, from the cache (`cached: true`) when the same clinic asked the same payer
 * about the same member, date of birth, service types, date of service and NPI for the same patient within
 * 24 h in the same mode. Otherwise sends a 270 and records an EligibilityCheck row through `store`; resolves
 * only once that row is written.
 * Throws AppError TRANSPORT_FAILED when the payer cannot be reached (nothing recorded), VALIDATION_FAILED when
 * a value cannot travel in a 270. A 271 that rejects the inquiry, or an answer that is not a readable 271,
 * is a result with status `unknown` and a `rejection`, never an error and never `inactive`.
 */
export async function checkEligibility(
  deps: EligibilityDeps,
  inquiry: EligibilityInquiry,
  store: EligibilityCheckStore = databaseCheckStore(deps.db),
): Promise<EligibilityOutcome> {
  const { outcome, recorded } = await askEligibility(deps, inquiry, store);
  await recorded;
  return outcome;
}

/**
 * checkEligibility in two steps, for callers that pipeline: resolves as soon as the answer is read, with
 * `recorded` settling when its EligibilityCheck row is written (already settled for a cache hit). The
 * outcome must not be reported before `recorded` resolves; when it rejects, the check did not happen.
 */
export async function askEligibility(
  deps: EligibilityDeps,
  inquiry: EligibilityInquiry,
  store: EligibilityCheckStore,
): Promise<{ outcome: EligibilityOutcome; recorded: Promise<void> }> {
  const { clock, payer } = deps;
  const cacheKey = eligibilityCacheKey(inquiry);
  const now = clock();
  const coverageOnFile = compareCoverage(
    { memberId: inquiry.subscriber.memberId, payerId: inquiry.payer.id },
    inquiry.coverage,
  );

  const hit = await store.findCached({
    cacheKey,
    clinicId: inquiry.clinicId,
    patientId: inquiry.patientId,
    mode: payer.mode,
    now,
  });
  if (hit) {
    // A row written under an older shape is not served: the payer is asked again.
    const stored = StoredResult.safeParse(hit.result);
    if (stored.success) {
      const { evidence, ...fields } = stored.data;
      return {
        outcome: {
          fields: { ...fields, coverageOnFile, cached: true, verifiedAt: hit.createdAt.toISOString() },
          evidence,
        },
        recorded: Promise.resolve(),
      };
    }
  }

  const traceNumber = randomBytes(10).toString('hex').toUpperCase();
  const providerName =
    typeof inquiry.provider.name === 'function' ? await inquiry.provider.name() : inquiry.provider.name;
  let request: string;
  try {
    const controlNumber = randomInt(1, 1_000_000_000);
    request = build270({
      interchangeControlNumber: controlNumber,
      groupControlNumber: controlNumber,
      transactionControlNumber: '0001',
      senderId: deps.config.eligibilityCore?.senderId ?? SANDBOX_SENDER_ID,
      receiverId: deps.config.eligibilityCore?.receiverId ?? SANDBOX_RECEIVER_ID,
      createdAt: now,
      payer: { id: inquiry.payer.id, name: x12Safe(inquiry.payer.name) || inquiry.payer.id },
      provider: { npi: inquiry.provider.npi, name: x12Safe(providerName) || 'PROVIDER' },
      subscriber: inquiry.subscriber,
      serviceTypeCodes: inquiry.serviceTypeCodes,
      dateOfService: inquiry.dateOfService,
      traceNumber,
    });
  } catch (cause) {
    throw new AppError(
      'VALIDATION_FAILED',
      'The member details hold characters or values an eligibility request cannot carry',
      {
        cause,
        issues: [
          {
            path: 'member',
            message: 'Names, member id, date of birth and NPI must be plain text without X12 delimiters',
          },
        ],
      },
    );
  }

  let answer: string;
  try {
    answer = await payer.send(request, { correlationId: inquiry.correlationId });
  } catch (error) {
    throw isAppError(error) && error.code === 'TRANSPORT_FAILED'
      ? error
      : new AppError('TRANSPORT_FAILED', 'The payer could not be reached; try the eligibility check again later', {
          cause: error,
        });
  }

  const answeredAt = clock();
  const { findings, cacheable } = readAnswer(answer, inquiry, traceNumber);
  const { evidence, memberId, ...rest } = findings;
  const fields: EligibilityFields = {
    ...rest,
    mode: payer.mode,
    cached: false,
    payerId: inquiry.payer.id,
    // The payer's corrected id wins; the request's id stands when the payer echoed none.
    memberId: memberId ?? inquiry.subscriber.memberId,
    coverageOnFile,
    verifiedAt: answeredAt.toISOString(),
  };
  const { cached: _cached, verifiedAt: _verifiedAt, coverageOnFile: _coverageOnFile, ...stored } = fields;
  const recorded = store.record({
    clinicId: inquiry.clinicId,
    patientId: inquiry.patientId,
    userId: inquiry.userId,
    cacheKey,
    payerId: inquiry.payer.id,
    // The id asked about, not the payer's corrected one: the claims precondition compares what staff asked
    // with the coverage on file.
    memberId: inquiry.subscriber.memberId,
    coverageOnFile,
    serviceType: inquiry.serviceTypeCodes.join(','),
    dateOfService: inquiry.dateOfService,
    status: fields.status,
    eligible: fields.eligible,
    mode: payer.mode,
    cacheable,
    result: { ...stored, evidence },
    correlationId: inquiry.correlationId,
    source: inquiry.source ?? 'staff',
    createdAt: answeredAt,
  });
  return { outcome: { fields, evidence }, recorded };
}

/** sha256 over clinic, payer, member, date of birth, service types, date of service and NPI (DECISIONS). */
export function eligibilityCacheKey(inquiry: Omit<EligibilityInquiry, 'coverage'>): string {
  const parts = [
    inquiry.clinicId,
    inquiry.payer.id,
    inquiry.subscriber.memberId,
    inquiry.subscriber.birthDate,
    inquiry.serviceTypeCodes.join('^'),
    inquiry.dateOfService,
    inquiry.provider.npi,
  ];
  // JSON keeps the parts apart: no value can shift into its neighbour.
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

type Answer = { findings: Findings; cacheable: boolean };

function readAnswer(answer: string, inquiry: EligibilityInquiry, traceNumber: string): Answer {
  let response: Response271;
  let findings: Findings;
  try {
    response = read271(answer);
    findings = readEligibility(response, {
      dateOfService: inquiry.dateOfService,
      serviceTypeCode: inquiry.serviceTypeCodes[0]!,
    });
  } catch (error) {
    if (error instanceof X12ReadError)
      return { findings: unknownFindings(ANSWER_NOT_READ[error.kind]), cacheable: false };
    throw error;
  }
  // A 271 that echoes someone else's trace number answers another inquiry: never let it speak for this one.
  if (!echoesTrace(response, traceNumber)) return { findings: unknownFindings(TRACE_MISMATCH), cacheable: false };
  const transient = findings.rejection !== null && TRANSIENT_REASON_CODES.has(findings.rejection.reasonCode);
  return { findings, cacheable: !transient };
}

/** 2000C/D TRN*2 carry our TRN02 back. None at all (a payer-level rejection) is accepted; a different one is not. */
function echoesTrace(response: Response271, traceNumber: string): boolean {
  const traces = response.loops
    .filter((loop) => loop.level === 'C' || loop.level === 'D')
    .flatMap((loop) => loop.segments)
    .filter((segment) => segment.id === 'TRN' && segment.elements[1] === '2')
    .map((segment) => segment.elements[2] ?? '');
  return traces.length === 0 || traces.includes(traceNumber);
}

/** A reason for `unknown` that no payer AAA stands behind (loop null). */
export type NotRead = Omit<Rejection, 'loop'>;

const ANSWER_NOT_READ: Record<X12ReadError['kind'], NotRead> = {
  ta1: {
    reasonCode: 'TA1',
    followUpCode: null,
    reason: 'The payer rejected the request envelope (TA1) without checking coverage',
    followUp:
      'Check again later; if it keeps happening, contact support with the correlation id, or confirm coverage with the payer by phone',
  },
  999: {
    reasonCode: '999',
    followUpCode: null,
    reason: 'The payer rejected the request as malformed (999 acknowledgment) without checking coverage',
    followUp:
      'Check the member id, name and date of birth, then check again; if it keeps happening, contact support with the correlation id',
  },
  unreadable: {
    reasonCode: 'UNREADABLE',
    followUpCode: null,
    reason: "The payer's answer could not be read as an eligibility response",
    followUp: 'Check again later, or confirm coverage with the payer by phone',
  },
};

const TRACE_MISMATCH: NotRead = {
  reasonCode: 'TRACE_MISMATCH',
  followUpCode: null,
  reason: "The payer's answer belongs to a different request (trace number differs)",
  followUp: 'Check again; do not rely on this answer, and report it to support with the correlation id if it repeats',
};

/** Findings for an answer we could not use: status unknown, every field empty. */
function unknownFindings(rejection: NotRead): Findings {
  return {
    status: 'unknown',
    eligible: false,
    rejection: { ...rejection, loop: null },
    memberId: null,
    memberName: null,
    planName: null,
    groupNumber: null,
    deductible: { individual: null, met: null, remaining: null },
    outOfPocket: { individual: null, met: null, remaining: null },
    copay: { specialist: null, primaryCare: null },
    coinsurance: null,
    coverageStart: null,
    coverageEnd: null,
    priorAuthRequired: false,
    priorAuthCodes: [],
    network: 'UNKNOWN',
    evidence: {},
  };
}

/** A result for a check that got no usable answer at all (the roster's transport failures): unknown, empty. */
export function unansweredFields(
  input: {
    mode: PayerTransport['mode'];
    payerId: string;
    memberId: string;
    coverageOnFile: CoverageOnFile;
    verifiedAt: Date;
  },
  rejection: NotRead,
): EligibilityFields {
  const { evidence: _evidence, memberId: _memberId, ...rest } = unknownFindings(rejection);
  return {
    ...rest,
    mode: input.mode,
    cached: false,
    payerId: input.payerId,
    memberId: input.memberId,
    coverageOnFile: input.coverageOnFile,
    verifiedAt: input.verifiedAt.toISOString(),
  };
}

/** Our own free text (payer and provider names) with X12 delimiters and line breaks turned into spaces. */
function x12Safe(value: string): string {
  return value
    .replace(/[*^:~\r\n]+/g, ' ')
    .trim()
    .slice(0, 60);
}
