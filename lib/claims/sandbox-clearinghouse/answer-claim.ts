// The sandbox clearinghouse's answer to an 837P: a real 999 and 277CA, and for an accepted claim the 835 its payer
// sends later, chosen by the subscriber's member id (DECISIONS "Claims out"): DEMO-CH-REJECT… is accepted by the
// 999 and rejected by the 277CA; DEMO-CH-ERRORS… gets a 999 E (accepted with errors) and an accepted 277CA, and is
// later paid like any other; DEMO-CH-DENY… is accepted and its remittance denies it (CO-50); anything else is accepted and paid less a
// contractual adjustment. Pure: the clock and control numbers come in, so the same input gives the same bytes.
import { createHash } from 'node:crypto';
import { build277ca } from '../../x12/build-277ca';
import type { Build837pInput } from '../../x12/build-837p';
import { build835, type Claim835, type Line835 } from '../../x12/build-835';
import { build999, type Ack999SetInput } from '../../x12/build-999';
import { readInterchange } from '../../x12/read-interchange';
import { read837p } from '../../x12/read-837p';

/** Which story the sandbox tells for a claim. */
export type SandboxScenario = 'accepted' | 'accepted-with-errors' | 'rejected' | 'deny-later';

export type AnswerClaimInput = {
  /** The 837P exactly as sent (build-837p.ts's shape). */
  x12: string;
  /** When the clearinghouse answers: stamped on the 999 and 277CA envelopes and as their dates. */
  now: Date;
  /** ISA13/GS06 of the 999 and of the 277CA, 1..999999999 each (the caller's sequence). */
  controlNumbers: { ack999: number; ack277ca: number };
};

export type SandboxClaimAnswer = {
  scenario: SandboxScenario;
  /** 005010X231A1 999 for the 837P's functional group. */
  ack999: string;
  /** 005010X214 277CA for the claim. */
  ack277ca: string;
  /**
   * The payer's 835 for the claim (absent when rejected): paid less a contractual adjustment, or denied with
   * CO-50. Deterministic: its TRN02 trace and control numbers derive from the claim id, so a re-run writes the
   * same bytes and posting it twice posts once. `paymentDate` is YYYY-MM-DD.
   */
  remittance835?: (paymentDate: string) => string;
};

/** Member id prefixes that choose a scenario; any other member id is 'accepted'. */
export const SANDBOX_SCENARIO_PREFIXES: readonly (readonly [prefix: string, scenario: SandboxScenario])[] = [
  ['DEMO-CH-REJECT', 'rejected'],
  ['DEMO-CH-ERRORS', 'accepted-with-errors'],
  ['DEMO-CH-DENY', 'deny-later'],
];

/** The scenario for a subscriber member id (compared as written, case included). */
export function scenarioFor(memberId: string): SandboxScenario {
  for (const [prefix, scenario] of SANDBOX_SCENARIO_PREFIXES) if (memberId.startsWith(prefix)) return scenario;
  return 'accepted';
}

/** What the sandbox payer allows of each line: 80% of the charge, the rest a CO-45 contractual adjustment. */
const ALLOWED_PERCENT = 80;
/** The copay (PR-3) the sandbox takes from the lines' allowed amounts in line order: $20.00 a claim at most. */
const COPAY_CENTS = 2000;

/** The sandbox payer's 1000A: an address and technical contact, as the 835 TR3 requires. */
const SANDBOX_PAYER_ADDRESS = { line1: '1 SANDBOX WAY', city: 'SPRINGFIELD', state: 'IL', postalCode: '62701' };
/** TRN03 is "1" + the payer's EIN; the sandbox payer has a made-up one. */
const SANDBOX_PAYER_TAX_ID = '999000001';
const SANDBOX_PAYER_CONTACT = { name: 'SANDBOX EDI SUPPORT', phone: '8005550199' };

/**
 * Throws X12ReadError when the text is not an 837P of build-837p.ts's shape: the caller treats that as a transport
 * failure (a real clearinghouse would answer it with a 999 R, which we never provoke).
 */
export function answerClaim(input: AnswerClaimInput): SandboxClaimAnswer {
  const sent = read837p(input.x12);
  const { claim } = sent;
  const scenario = scenarioFor(claim.subscriber.memberId);
  const today = isoDay(input.now);
  const answerEnvelope = (controlNumber: number) => ({
    interchangeControlNumber: controlNumber,
    groupControlNumber: controlNumber,
    transactionControlNumber: '0001',
    // The clearinghouse answers the submitter: the 837's sender and receiver swapped.
    senderId: sent.receiverId,
    receiverId: sent.senderId,
    usageIndicator: sent.usageIndicator ?? 'P',
    createdAt: input.now,
  });

  const set: Ack999SetInput = {
    transactionSetId: '837',
    controlNumber: sent.transactionControlNumber,
    implementationReference: '005010X222A1',
    status: 'A',
  };
  if (scenario === 'accepted-with-errors') {
    // A warning that does not stop the claim: the submitter's EDI contact phone (1000A PER04, data element 364)
    // fails the clearinghouse's pattern (I12). The segment position is read from what was sent.
    set.status = 'E';
    set.errors = [
      {
        segmentId: 'PER',
        position: segmentPosition(input.x12, 'PER'),
        loopId: '1000A',
        code: '8',
        element: { position: 4, referenceNumber: '364', code: 'I12' },
      },
    ];
  }
  const ack999 = build999({
    ...answerEnvelope(input.controlNumbers.ack999),
    received: {
      functionalId: 'HC',
      groupControlNumber: String(sent.groupControlNumber),
      implementationReference: '005010X222A1',
      transactionSetCount: 1,
    },
    sets: [set],
  });

  const isRejected = scenario === 'rejected';
  const payerClaimId = payerClaimIdFor(claim.claimId);
  const patient = claim.patient?.name ?? claim.subscriber.name;
  const serviceDates = serviceDatesOf(sent);
  const ack277ca = build277ca({
    ...answerEnvelope(input.controlNumbers.ack277ca),
    referenceId: `277CA${input.controlNumbers.ack277ca}`,
    informationSource: { entity: 'PR', id: claim.payer.id, name: claim.payer.name },
    informationReceiver: { id: sent.submitter.id, name: sent.submitter.name },
    batchId: sent.batchId,
    receivedDate: today,
    processedDate: today,
    billingProvider: { npi: claim.billingProvider.npi, name: claim.billingProvider.name },
    claims: [
      {
        claimId: claim.claimId,
        patient: { ...patient, memberId: claim.subscriber.memberId },
        // A2:20 accepted for processing; A7:33:IL rejected for invalid information, subscriber id not found.
        status: isRejected
          ? { category: 'A7', code: '33', entity: 'IL' }
          : { category: 'A2', code: '20', entity: 'PR' },
        statusDate: today,
        chargeCents: claim.totalChargeCents,
        ...(isRejected ? { message: 'SUBSCRIBER ID NOT FOUND (SANDBOX CLEARINGHOUSE)' } : { payerClaimId }),
        serviceDates,
      },
    ],
  });

  // A void asks the payer for nothing to pay: its answer is the acceptance (the payer's reversal of what it paid
  // the original, if any, is its own 835).
  if (isRejected || claim.frequency === '8') return { scenario, ack999, ack277ca };
  return {
    scenario,
    ack999,
    ack277ca,
    remittance835: (paymentDate: string) =>
      remittanceFor(
        sent,
        scenario === 'deny-later' ? 'deny' : claim.otherPayer ? 'pay-secondary' : 'pay',
        paymentDate,
        payerClaimId,
      ),
  };
}

/**
 * A secondary payer's lines (DECISIONS "Claim lifecycle"): it pays half of the balance the primary left (the
 * charge less what the primary paid and adjusted other than PR), rounded down to the cent, the rest PR-2
 * (coinsurance); what the primary settled is OA-23 (the impact of prior payer adjudication). Half of each line's
 * balance, rounded down, and the cents the rounding left go to the first lines with room, so the claim's payment is
 * exactly half of its balance rounded down.
 */
function secondaryLines(claim: Build837pInput['claim']): Line835[] {
  const other = claim.otherPayer!;
  const balances = claim.lines.map((line, i) => {
    const adjudicated = other.lines[i]!;
    const settled =
      adjudicated.paidCents +
      adjudicated.adjustments.filter((a) => a.group !== 'PR').reduce((sum, a) => sum + a.amountCents, 0);
    return Math.max(0, line.chargeCents - settled);
  });
  // Claim-level CAS of the primary (other than PR) lower the balance too: taken from the first lines.
  let claimLevel = other.adjustments.filter((a) => a.group !== 'PR').reduce((sum, a) => sum + a.amountCents, 0);
  for (let i = 0; i < balances.length && claimLevel > 0; i++) {
    const taken = Math.min(balances[i]!, claimLevel);
    balances[i]! -= taken;
    claimLevel -= taken;
  }
  const total = balances.reduce((sum, b) => sum + b, 0);
  const paid = balances.map((b) => Math.floor(b / 2));
  let left = Math.floor(total / 2) - paid.reduce((sum, p) => sum + p, 0);
  for (let i = 0; i < paid.length && left > 0; i++) {
    if (paid[i]! < balances[i]!) {
      paid[i]! += 1;
      left -= 1;
    }
  }
  return claim.lines.map((line, i) => {
    const adjustments = [
      { group: 'OA', reason: '23', amountCents: line.chargeCents - balances[i]! },
      { group: 'PR', reason: '2', amountCents: balances[i]! - paid[i]! },
    ].filter((a) => a.amountCents > 0);
    return {
      procedureCode: line.procedureCode,
      modifiers: line.modifiers,
      chargeCents: line.chargeCents,
      units: line.units,
      serviceDate: line.serviceDate,
      paidCents: paid[i]!,
      adjustments,
    };
  });
}

/** The 835 the sandbox payer sends for the claim: deterministic in the claim and the payment date. */
function remittanceFor(
  sent: Build837pInput,
  outcome: 'pay' | 'pay-secondary' | 'deny',
  paymentDate: string,
  payerClaimId: string,
): string {
  const { claim } = sent;
  const digest = hashOf(claim.claimId);
  const lines: Line835[] = outcome === 'pay-secondary' ? secondaryLines(claim) : [];
  let copayLeft = COPAY_CENTS;
  let patientResponsibilityCents = lines.reduce(
    (sum, line) => sum + line.adjustments.filter((a) => a.group === 'PR').reduce((s, a) => s + a.amountCents, 0),
    0,
  );
  for (const line of outcome === 'pay-secondary' ? [] : claim.lines) {
    const base = {
      procedureCode: line.procedureCode,
      modifiers: line.modifiers,
      chargeCents: line.chargeCents,
      units: line.units,
      serviceDate: line.serviceDate,
    };
    if (outcome === 'deny') {
      // CO-50: not deemed a medical necessity by the payer; the provider writes it off (CO), nothing is paid.
      lines.push({
        ...base,
        paidCents: 0,
        adjustments: [{ group: 'CO', reason: '50', amountCents: line.chargeCents }],
      });
      continue;
    }
    const allowedCents = Math.floor((line.chargeCents * ALLOWED_PERCENT) / 100);
    const copayCents = Math.min(copayLeft, allowedCents);
    copayLeft -= copayCents;
    patientResponsibilityCents += copayCents;
    const adjustments = [{ group: 'CO', reason: '45', amountCents: line.chargeCents - allowedCents }];
    if (copayCents > 0) adjustments.push({ group: 'PR', reason: '3', amountCents: copayCents });
    lines.push({ ...base, paidCents: allowedCents - copayCents, adjustments });
  }
  const paidCents = lines.reduce((sum, line) => sum + line.paidCents, 0);
  const patient = claim.patient?.name ?? claim.subscriber.name;
  const dates = serviceDatesOf(sent);
  const payment: Claim835 = {
    claimId: claim.claimId,
    // CLP02 1 processed as primary, 2 as secondary; 4 denied.
    statusCode: outcome === 'deny' ? '4' : outcome === 'pay-secondary' ? '2' : '1',
    chargeCents: claim.totalChargeCents,
    paidCents,
    patientResponsibilityCents,
    payerClaimId,
    facilityCode: claim.placeOfService,
    patient: { lastName: patient.lastName, firstName: patient.firstName, memberId: claim.subscriber.memberId },
    statementFrom: dates.from,
    ...(dates.to === undefined ? {} : { statementTo: dates.to }),
    adjustments: [],
    lines,
  };
  return build835({
    // A control number of its own, from the claim id: the same remittance is the same bytes on every run.
    interchangeControlNumber: (parseInt(digest.slice(0, 8), 16) % 999_999_999) + 1,
    groupControlNumber: (parseInt(digest.slice(8, 16), 16) % 999_999_999) + 1,
    transactionControlNumber: '0001',
    senderId: sent.receiverId,
    receiverId: sent.senderId,
    usageIndicator: sent.usageIndicator ?? 'P',
    createdAt: new Date(`${paymentDate}T12:00:00Z`),
    paymentMethod: 'CHK',
    paymentDate,
    // TRN02, what posting is idempotent on: from the claim id alone, so a re-run posts nothing new.
    traceNumber: `SBX${digest.slice(0, 20).toUpperCase()}`,
    payer: {
      id: claim.payer.id,
      name: claim.payer.name,
      taxId: SANDBOX_PAYER_TAX_ID,
      address: SANDBOX_PAYER_ADDRESS,
      technicalContact: SANDBOX_PAYER_CONTACT,
    },
    payee: { npi: claim.billingProvider.npi, name: claim.billingProvider.name },
    claims: [payment],
  });
}

/** The payer's claim control number (REF*1K, CLP07) the sandbox assigns: from the claim id, so it is stable. */
function payerClaimIdFor(claimId: string): string {
  return `SBXPCN${hashOf(`payer-claim:${claimId}`).slice(0, 12).toUpperCase()}`;
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The first and last line dates; `to` only when they differ. */
function serviceDatesOf(sent: Build837pInput): { from: string; to?: string } {
  const dates = sent.claim.lines.map((line) => line.serviceDate).sort();
  const from = dates[0]!;
  const to = dates[dates.length - 1]!;
  return to === from ? { from } : { from, to };
}

/** ST=1 position of the first segment `id` of the interchange's one transaction set. */
function segmentPosition(x12: string, id: string): number {
  const segments = readInterchange(x12).groups[0]!.transactions[0]!.segments;
  return segments.findIndex((segment) => segment.id === id) + 1;
}

/** YYYY-MM-DD of the instant in UTC. */
function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}
