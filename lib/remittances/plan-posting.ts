// What one 835 posts, decided in memory before anything is written (pure): per CLP in file order, the claim's charge
// booking, its ledger transaction, the patient's bill, the claim lines' payments, the claim's totals and state, its
// timeline event, transmission and RemittanceClaim. The claims' rows (read under their locks) are updated here as
// each CLP posts, so a reversal and the corrected claim after it (two CLPs of one claim) each start from what the one
// before left, exactly as when each CLP was written on its own. write-posting.ts then writes the plan in a handful of
// set-based statements. Every rule of DECISIONS "Money in" lives here; the writer only copies rows. A CLP the claim
// cannot take as it stands (a reversal of what was never posted, a payment to a closed claim, a later payer's
// payment before the primary's) is kept `unmatched` with its reason, as a CLP naming no sent claim is.
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors';
import { buildPosting, type LedgerLine } from '../ledger/build-posting';
import { MAX_AMOUNT_CENTS } from '../money/cents';
import { canTransition, isClaimStatus } from '../claims/claim-states';
import { describeCarc } from '../x12/carc';
import { describeRarc } from '../x12/rarc';
import type { ClaimPayment, Remittance } from '../x12/read-remittance';
import { textOf, type X12Text } from '../x12/x12-text';
import { CLAIM_CHARGE_KIND, claimChargeLines, claimChargeReference } from './book-claim-charge';
import { claimOutcome, outcomeReason, STATUS_FOR_OUTCOME, type ClaimOutcome } from './claim-outcome';
import type { ClaimRemarks } from './read-remarks';
import {
  adjustmentTotals,
  claimLedgerLines,
  providerLedgerLines,
  secondaryLedgerLines,
} from './remittance-ledger-lines';

/** A claim as the posting reads it under its lock: totals, state and lines. */
export type PostingClaim = {
  id: string;
  patientId: string;
  totalChargeCents: bigint;
  status: string;
  paidCents: bigint;
  patientResponsibilityCents: bigint;
  adjustmentCents: bigint;
  /** primary | secondary; a secondary claim names the primary whose 835 it carries (DECISIONS "Claim lifecycle"). */
  payerRank: string;
  primaryClaimId: string | null;
  lines: { id: string; position: number; procedureCode: string; modifiers: string[] }[];
};

/** The claim's patient bill (the first one raised for it), as read before the posting. */
export type PostingBill = { id: string; claimId: string; patientId: string; amountCents: number; paidCents: number };

export type PlannedLedgerTransaction = { id: string; kind: string; reference: string; lines: LedgerLine[] };

/** What one CLP did, as data: for the timeline, the events outbox and the screens. */
export type ClaimPostingOutcome = {
  position: number;
  claimId: string;
  posting: 'posted' | 'unmatched';
  outcome: ClaimOutcome;
  fromStatus: string | null;
  toStatus: string | null;
  paidCents: number;
};

/** What a chunk of CLPs posts: its rows, in file order, written and dropped before the next chunk is planned. */
export type ChunkPlan = {
  /** Per CLP its charge booking then its posting, in the order the Remittance lists them. */
  ledger: PlannedLedgerTransaction[];
  /** Timeline entries, one per posted CLP, in file order (all at the posting's time, for its correlation id). */
  events: { claimId: string; kind: string; fromStatus: string | null; toStatus: string | null; detail: object }[];
  /** The 835 as each posted claim's timeline keeps it (an incoming `835` transmission, control number TRN02). */
  transmissions: { claimId: string; x12: string }[];
  remittanceClaims: RemittanceClaimRow[];
  outcomes: ClaimPostingOutcome[];
};

/** What the 835 posts once every CLP is planned: per claim and bill its final state, then the PLB. */
export type FinalPlan = {
  /** The PLB's transaction, listed after every CLP's. */
  ledger: PlannedLedgerTransaction[];
  /** Each posted claim's final totals and state; statusReason undefined when no CLP set it. */
  claims: {
    id: string;
    paidCents: bigint;
    patientResponsibilityCents: bigint;
    adjustmentCents: bigint;
    status: string;
    statusReason: string | null | undefined;
    /** CLP07 of the claim's latest CLP that has one: REF*F8 of a later replacement or void. */
    payerClaimId: string | null;
  }[];
  /** Claim line id to the cents this 835 adds to its paidCents. */
  linePayments: Map<string, bigint>;
  newBills: { id: string; patientId: string; claimId: string; amountCents: number; status: string }[];
  changedBills: { id: string; amountCents: number; status: string }[];
};

export type PlanInput = {
  remittanceId: string;
  /** The interchange's length decides what each claim's transmission keeps (transmissionText). */
  x12: X12Text;
  /** Per claim id the 835 names: null when it may post, else why not (resolve-claims.ts, under the locks). */
  reasons: Map<string, string | null>;
  claims: PostingClaim[];
  /** Claim ids whose charge is already booked. */
  charged: Set<string>;
  /** Read under the bills' locks: what a secondary payment may take off a bill depends on what is paid of it. */
  bills: PostingBill[];
  /** Per claim id the cents its earlier later-payer CLPs left unapplied (a reversal takes them back first). */
  unapplied: Map<string, bigint>;
};

type ClaimState = PostingClaim & {
  reason: string | null | undefined;
  payerClaimId: string | null;
  unappliedCents: bigint;
};

/**
 * The running state of one 835's posting, carried from chunk to chunk: each claim's totals and state, its bill,
 * whether its charge is booked and what its lines were paid. Bounded by the claims the 835 names, not its CLPs.
 */
export type PlanState = {
  remittanceId: string;
  /** The interchange when each claim's transmission keeps all of it (transmissionText), else null. */
  whole835: string | null;
  reasons: Map<string, string | null>;
  rows: Map<string, ClaimState>;
  bills: Map<string, BillState>;
  charged: Set<string>;
  linePayments: Map<string, bigint>;
  /** Posted claim ids, in the order their first CLP posted. */
  posted: Set<string>;
  /** The first CLP kept unmatched because its claim could not take it (the 422's words when none posts). */
  firstRefusal: { claimId: string; reason: string } | null;
};

/**
 * Up to this size each claim's transmission keeps the interchange exactly as received (what support staff expect
 * to see); beyond it, the claim's CLP loop as written, so a remittance of thousands of claims is not copied once per
 * claim (the whole text stays on the Remittance, found by the control number, TRN02).
 */
const WHOLE_835_PER_CLAIM_CHARS = 64 * 1024;

const newId = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;

export function startPlan(input: PlanInput): PlanState {
  return {
    remittanceId: input.remittanceId,
    whole835: input.x12.length <= WHOLE_835_PER_CLAIM_CHARS ? textOf(input.x12) : null,
    reasons: input.reasons,
    rows: new Map(
      input.claims.map((row) => [
        row.id,
        { ...row, reason: undefined, payerClaimId: null, unappliedCents: input.unapplied.get(row.id) ?? 0n },
      ]),
    ),
    bills: new Map(input.bills.map((bill) => [bill.claimId, { ...bill, isNew: false, changed: false }])),
    charged: new Set(input.charged),
    linePayments: new Map(),
    posted: new Set(),
    firstRefusal: null,
  };
}

/**
 * Plans the CLPs `claims` (each with its remarks), the first of which is at 1-based `firstPosition` in the 835, from
 * the state the CLPs before them left; updates that state.
 * @throws UNPROCESSABLE (422) when a claim's running totals or the patient's bill would leave their bounds.
 */
export function planChunk(
  state: PlanState,
  chunk: { claims: readonly { claim: ClaimPayment; remarks: ClaimRemarks }[]; firstPosition: number },
): ChunkPlan {
  const { remittanceId, rows, bills, charged } = state;
  const plan: ChunkPlan = { ledger: [], events: [], transmissions: [], remittanceClaims: [], outcomes: [] };

  for (const [index, { claim, remarks }] of chunk.claims.entries()) {
    const position = chunk.firstPosition + index;
    const row = rows.get(claim.claimId);
    const reason = state.reasons.get(claim.claimId) ?? null;
    const kept = remittanceClaimRow({ claim, position, remarks });
    const keepUnmatched = (unmatchedReason: string) => {
      plan.remittanceClaims.push({ ...kept, posting: 'unmatched', unmatchedReason });
      plan.outcomes.push({
        position,
        claimId: claim.claimId,
        posting: 'unmatched',
        outcome: null,
        fromStatus: null,
        toStatus: null,
        paidCents: claim.paidCents,
      });
    };
    if (!row || reason !== null) {
      keepUnmatched(reason ?? 'The claim cannot take this payment');
      continue;
    }
    const way = postingWay(row, claim);
    const { patientCents, otherCents } = adjustmentTotals(claim);
    const refusal = refusalOf(row, claim, way, { patientCents, otherCents });
    if (refusal !== null) {
      keepUnmatched(refusal);
      state.firstRefusal ??= { claimId: claim.claimId, reason: refusal };
      continue;
    }
    // A claim's billed charge enters the ledger once, booked by its first remittance (book-claim-charge.ts). A
    // secondary claim bills the same visit again: its charge was booked with its primary's, so not twice.
    if (!charged.has(row.id) && way !== 'secondary') {
      const chargeLines = claimChargeLines(row.totalChargeCents);
      if (chargeLines) {
        plan.ledger.push({
          id: newId('ltx'),
          kind: CLAIM_CHARGE_KIND,
          reference: claimChargeReference(row.id),
          lines: chargeLines,
        });
      }
      charged.add(row.id);
    }
    // A later payer's payment settles the patient's share of the visit, on the bill the primary's PR raised.
    const billClaimId = way === 'secondary' ? row.primaryClaimId! : row.id;
    const share =
      way === 'primary'
        ? { receivableCents: 0n, unappliedCents: 0n }
        : splitPatientShare(bills.get(billClaimId), row.unappliedCents, BigInt(claim.paidCents));
    const lines = way === 'primary' ? claimLedgerLines(claim) : secondaryLedgerLines(claim, share);
    if (lines.length > 0) {
      plan.ledger.push({
        id: newId('ltx'),
        kind: claim.statusCode === '22' ? 'remittance.reversal' : 'remittance.claim',
        reference: `remittance:${remittanceId}:${position}`,
        lines: buildPosting(lines),
      });
    }

    const { paidCents, patientResponsibilityCents, adjustmentCents } = totalsAfter(row, claim, way, {
      patientCents,
      otherCents,
      receivableCents: share.receivableCents,
    });
    for (const [name, value] of [
      ['paid', paidCents],
      ['patient responsibility', patientResponsibilityCents],
      ['adjustment', adjustmentCents],
    ] as const) {
      if (value > BigInt(MAX_AMOUNT_CENTS) || value < -BigInt(MAX_AMOUNT_CENTS)) {
        throw new AppError(
          'UNPROCESSABLE',
          `Claim ${JSON.stringify(claim.claimId)}'s ${name} total would exceed ${MAX_AMOUNT_CENTS} cents; nothing was posted`,
        );
      }
    }
    if (way === 'primary') {
      if (patientCents !== 0n) {
        movePatientResponsibility(bills, { claimId: row.id, patientId: row.patientId, patientCents });
      }
    } else if (share.receivableCents !== 0n) {
      // What a later payer pays comes off the patient's bill for the visit, at most what is open on it; its PR only
      // repeats the part of that bill the patient still owes, so it is not billed again.
      movePatientResponsibility(bills, {
        claimId: billClaimId,
        patientId: row.patientId,
        patientCents: -share.receivableCents,
      });
    }
    row.unappliedCents += share.unappliedCents;
    payLines(state.linePayments, row, claim);

    // A crossover leaves the claim's state to its primary payer's adjudication: the later payer only pays the
    // patient's share.
    const outcome = way === 'crossover' ? null : claimOutcome(claim);
    const detail = {
      remittanceId,
      position,
      statusCode: claim.statusCode,
      paidCents: claim.paidCents,
      patientResponsibilityCents: Number(patientCents),
      adjustmentCents: Number(otherCents),
      // Read back by a later reversal (post-remittance.ts): it takes these cents back from unapplied first.
      ...(share.unappliedCents !== 0n && { unappliedCents: Number(share.unappliedCents) }),
      ...(way === 'crossover' && { note: CROSSOVER_NOTE }),
    };
    const kind = claim.statusCode === '22' ? 'reversal' : 'payment';
    const from = row.status;
    const to = outcome ? STATUS_FOR_OUTCOME[outcome] : null;
    // The claim row is locked and its state tracked here, so the state table's conditional update always finds the
    // state this CLP starts from: a move the table allows is made.
    const moved = to !== null && to !== from && isClaimStatus(from) && isClaimStatus(to) && canTransition(from, to);
    row.paidCents = paidCents;
    row.patientResponsibilityCents = patientResponsibilityCents;
    row.adjustmentCents = adjustmentCents;
    if (outcome) row.reason = outcomeReason(claim, outcome);
    if (claim.payerClaimId) row.payerClaimId = claim.payerClaimId;
    if (moved) row.status = to;
    plan.events.push({
      claimId: row.id,
      kind,
      // Same state (a second payment), or a state the table does not leave this way (closed): the money still posts.
      fromStatus: moved ? from : null,
      toStatus: moved ? to : null,
      detail: !moved && to && to !== from ? { ...detail, note: `status stays ${from}` } : detail,
    });
    plan.transmissions.push({ claimId: row.id, x12: state.whole835 ?? remarks.text });
    plan.remittanceClaims.push(kept);
    state.posted.add(row.id);
    plan.outcomes.push({
      position,
      claimId: row.id,
      posting: 'posted',
      outcome,
      fromStatus: from,
      toStatus: moved ? to : null,
      paidCents: claim.paidCents,
    });
  }
  return plan;
}

/** The 835's closing rows: the PLB's ledger transaction, the posted claims' final state, the bills. */
export function finishPlan(state: PlanState, providerAdjustments: Remittance['providerAdjustments']): FinalPlan {
  const plan: FinalPlan = { ledger: [], claims: [], linePayments: state.linePayments, newBills: [], changedBills: [] };
  const providerLines = providerLedgerLines(providerAdjustments);
  if (providerLines.length > 0) {
    plan.ledger.push({
      id: newId('ltx'),
      kind: 'remittance.provider-adjustment',
      reference: `remittance:${state.remittanceId}`,
      lines: buildPosting(providerLines),
    });
  }
  for (const id of state.posted) {
    const row = state.rows.get(id)!;
    plan.claims.push({
      id,
      paidCents: row.paidCents,
      patientResponsibilityCents: row.patientResponsibilityCents,
      adjustmentCents: row.adjustmentCents,
      status: row.status,
      statusReason: row.reason,
      payerClaimId: row.payerClaimId,
    });
  }
  for (const bill of state.bills.values()) {
    if (bill.isNew) {
      plan.newBills.push({
        id: bill.id,
        patientId: bill.patientId,
        claimId: bill.claimId,
        amountCents: bill.amountCents,
        status: bill.amountCents > 0 ? 'open' : 'paid',
      });
    } else if (bill.changed) {
      plan.changedBills.push({
        id: bill.id,
        amountCents: bill.amountCents,
        status: bill.paidCents >= bill.amountCents ? 'paid' : 'open',
      });
    }
  }
  return plan;
}

/**
 * The 422 for an 835 none of whose CLPs its claims could take (every CLP named a sent claim, so each was refused
 * here), naming the first.
 */
export function nothingPosted(state: PlanState): AppError {
  const first = state.firstRefusal;
  const named = first ? ` (CLP01 ${JSON.stringify(first.claimId)}: ${first.reason})` : '';
  return new AppError('UNPROCESSABLE', `The 835 has no CLP its claim can take${named}; nothing was posted`);
}

/** A secondary claim (DECISIONS "Claim lifecycle"): it bills what its primary's 835 left to the patient. */
function isSecondary(row: { payerRank: string; primaryClaimId: string | null }): boolean {
  return row.payerRank === 'secondary' && row.primaryClaimId !== null;
}

/** CLP02 of a payer that processed the claim after another: 2 secondary, 3 tertiary, 20 and 21 the same, forwarded. */
const LATER_PAYER_CODES = new Set(['2', '3', '20', '21']);

/**
 * How a CLP posts: `primary`, the payer adjudicated the claim (claimLedgerLines, PR to the claim's bill);
 * `secondary`, the claim is a secondary claim (its payment settles the patient's share on its primary's bill);
 * `crossover`, a payer processed a primary claim as secondary or tertiary (CLP02 2, 3, 20, 21): the claim was
 * crossed over to it without a secondary claim of ours. DECISIONS "Claim lifecycle" makes a primary 835 CLP02 1 or
 * 19 and has a later payer's money come off the patient's bill for the visit, so a crossover posts the secondary
 * way on the claim's own bill: posting it the primary way would take CLP03 off the claims receivable a second time
 * and bill the patient its PR again.
 */
type PostingWay = 'primary' | 'secondary' | 'crossover';

function postingWay(row: ClaimState, claim: ClaimPayment): PostingWay {
  if (isSecondary(row)) return 'secondary';
  return LATER_PAYER_CODES.has(claim.statusCode) ? 'crossover' : 'primary';
}

const CROSSOVER_NOTE = "paid as a later payer (crossover): settles the patient's share; the state is the primary's";
export const CLOSED_CLAIM_REASON =
  'The claim is closed (voided, replaced or written off): money on it moves only through a reversal (CLP02 22)';
export const REVERSAL_SIGN_REASON =
  'A reversal (CLP02 22) carries its amounts negated (CLP03, CLP04, CLP05 zero or below); this one does not';
export const REVERSAL_EXCEEDS_REASON = 'The reversal (CLP02 22) takes back more than was posted to the claim';
export const CROSSOVER_FIRST_REASON =
  "A later payer's payment (CLP02 2, 3, 20 or 21) for a claim whose primary payment is not posted";

/** Why the claim cannot take this CLP as it stands, in words; null when it can. */
function refusalOf(
  row: ClaimState,
  claim: ClaimPayment,
  way: PostingWay,
  cas: { patientCents: bigint; otherCents: bigint },
): string | null {
  const isReversal = claim.statusCode === '22';
  // DECISIONS "Claim lifecycle": a voided or replaced claim is done; what was posted to it leaves by a reversal.
  if (row.status === 'closed' && !isReversal) return CLOSED_CLAIM_REASON;
  if (isReversal) {
    // DECISIONS "Money in": a reversal reverses exactly what it names; the TR3 negates a reversal's amounts.
    if (claim.chargeCents > 0 || claim.paidCents > 0 || claim.patientResponsibilityCents > 0) {
      return REVERSAL_SIGN_REASON;
    }
    const after = totalsAfter(row, claim, way, { ...cas, receivableCents: 0n });
    const below = (before: bigint, total: bigint) => total < 0n && total < before;
    if (
      below(row.paidCents, after.paidCents) ||
      below(row.patientResponsibilityCents, after.patientResponsibilityCents) ||
      below(row.adjustmentCents, after.adjustmentCents)
    ) {
      return REVERSAL_EXCEEDS_REASON;
    }
  }
  // Nothing of the primary's adjudication posted: no patient share to settle, and the primary's CLP, when it comes,
  // takes the charge off the receivable.
  if (
    way === 'crossover' &&
    row.paidCents === 0n &&
    row.patientResponsibilityCents === 0n &&
    row.adjustmentCents === 0n
  ) {
    return CROSSOVER_FIRST_REASON;
  }
  return null;
}

/**
 * The claim's totals once the CLP posts. A primary or secondary claim adds the CLP's payment and CAS. A crossover
 * adds its payment and takes what it settled of the patient's share off the patient responsibility, so the claim's
 * balance is unchanged (its CAS, OA-23 of the prior payer and the PR left, repeat what the primary posted).
 */
function totalsAfter(
  row: ClaimState,
  claim: ClaimPayment,
  way: PostingWay,
  amounts: { patientCents: bigint; otherCents: bigint; receivableCents: bigint },
): { paidCents: bigint; patientResponsibilityCents: bigint; adjustmentCents: bigint } {
  const paidCents = row.paidCents + BigInt(claim.paidCents);
  if (way === 'crossover') {
    return {
      paidCents,
      patientResponsibilityCents: row.patientResponsibilityCents - amounts.receivableCents,
      adjustmentCents: row.adjustmentCents,
    };
  }
  return {
    paidCents,
    patientResponsibilityCents: row.patientResponsibilityCents + amounts.patientCents,
    adjustmentCents: row.adjustmentCents + amounts.otherCents,
  };
}

/**
 * What a later payer's CLP04 does to the patient's share: `receivableCents` comes off the patient receivable and
 * the bill, `unappliedCents` goes to unapplied payments (they add up to CLP04). A payment takes off at most what is
 * open on the bill (owed less paid; nothing without a bill), the rest is unapplied: the patient cannot owe less than
 * nothing. A reversal (negative CLP04) takes back first what the claim's payments left unapplied, then re-opens the
 * bill by the rest.
 */
function splitPatientShare(
  bill: BillState | undefined,
  unappliedBeforeCents: bigint,
  paidCents: bigint,
): { receivableCents: bigint; unappliedCents: bigint } {
  if (paidCents >= 0n) {
    const open = bill ? BigInt(bill.amountCents) - BigInt(bill.paidCents) : 0n;
    const receivableCents = open <= 0n ? 0n : paidCents < open ? paidCents : open;
    return { receivableCents, unappliedCents: paidCents - receivableCents };
  }
  const takenBack = -paidCents;
  const available = unappliedBeforeCents > 0n ? unappliedBeforeCents : 0n;
  const fromUnapplied = takenBack < available ? takenBack : available;
  return { receivableCents: -(takenBack - fromUnapplied), unappliedCents: -fromUnapplied };
}

/** Service lines pay the claim line with the same procedure code and modifiers, first unmatched first. */
function payLines(payments: Map<string, bigint>, row: PostingClaim, claim: ClaimPayment): void {
  const used = new Set<number>();
  for (const line of claim.lines) {
    const match =
      row.lines.find(
        (l) =>
          !used.has(l.position) &&
          l.procedureCode === line.procedureCode &&
          l.modifiers.join(':') === line.modifiers.join(':'),
      ) ?? row.lines.find((l) => !used.has(l.position) && l.procedureCode === line.procedureCode);
    if (!match) continue;
    used.add(match.position);
    if (line.paidCents !== 0) payments.set(match.id, (payments.get(match.id) ?? 0n) + BigInt(line.paidCents));
  }
}

const MAX_BILL_CENTS = 2_147_483_647n;

type BillState = PostingBill & { isNew: boolean; changed: boolean };

/**
 * PR moves to the patient's bill for this claim (one bill per claim, created on first need; a reversal lowers it,
 * never below zero). A new bill is open when it holds money; a changed one is paid once its payments cover it.
 */
function movePatientResponsibility(
  bills: Map<string, BillState>,
  input: { claimId: string; patientId: string; patientCents: bigint },
): void {
  const bill = bills.get(input.claimId);
  const amount = BigInt(bill?.amountCents ?? 0) + input.patientCents;
  if (amount > MAX_BILL_CENTS) {
    throw new AppError(
      'UNPROCESSABLE',
      `The patient's bill for claim ${JSON.stringify(input.claimId)} would exceed ${MAX_BILL_CENTS} cents; nothing was posted`,
    );
  }
  const amountCents = Number(amount < 0n ? 0n : amount);
  if (!bill) {
    const id = newId('bill');
    bills.set(input.claimId, {
      id,
      claimId: input.claimId,
      patientId: input.patientId,
      amountCents,
      paidCents: 0,
      isNew: true,
      changed: false,
    });
    return;
  }
  // A bill this 835 created and changes again is written once, as a new bill with its latest amount (with nothing
  // paid yet, the creation rule and the change rule give it the same status).
  bill.amountCents = amountCents;
  bill.changed = true;
}

/** The stored CAS and remarks of a claim: CAS claim level then each line's, then the remark codes (group RARC). */
export type StoredAdjustment = {
  group: string;
  reason: string;
  amountCents: number;
  description: string;
  /** 1-based SVC position within the CLP; null at claim level. */
  line: number | null;
};

function storedAdjustments(claim: ClaimPayment, remarks: ClaimRemarks): StoredAdjustment[] {
  const cas = (line: number | null) => (a: ClaimPayment['adjustments'][number]) => ({
    group: a.group,
    reason: a.reason,
    amountCents: a.amountCents,
    description: describeCarc(a.reason),
    line,
  });
  const remark = (line: number | null) => (code: string) => ({
    group: 'RARC',
    reason: code,
    amountCents: 0,
    description: describeRarc(code),
    line,
  });
  return [
    ...claim.adjustments.map(cas(null)),
    ...claim.lines.flatMap((l, i) => l.adjustments.map(cas(i + 1))),
    ...remarks.claim.map(remark(null)),
    ...remarks.lines.flatMap((codes, i) => codes.map(remark(i + 1))),
  ];
}

export type RemittanceClaimRow = {
  claimId: string;
  position: number;
  payerClaimId: string | null;
  statusCode: string;
  chargeCents: number;
  paidCents: number;
  patientResponsibilityCents: number;
  adjustments: StoredAdjustment[];
  lines: object[];
  posting: 'posted' | 'unmatched';
  unmatchedReason: string | null;
};

/** The CLP as read, as the remittance keeps it (posted unless the caller says otherwise). */
function remittanceClaimRow(input: {
  claim: ClaimPayment;
  position: number;
  remarks: ClaimRemarks;
}): RemittanceClaimRow {
  const { claim } = input;
  return {
    claimId: claim.claimId,
    position: input.position,
    payerClaimId: claim.payerClaimId,
    statusCode: claim.statusCode,
    chargeCents: claim.chargeCents,
    paidCents: claim.paidCents,
    patientResponsibilityCents: claim.patientResponsibilityCents,
    adjustments: storedAdjustments(claim, input.remarks),
    lines: claim.lines.map((line) => ({
      procedureCode: line.procedureCode,
      modifiers: line.modifiers,
      chargeCents: line.chargeCents,
      paidCents: line.paidCents,
      units: line.units,
    })),
    posting: 'posted',
    unmatchedReason: null,
  };
}
