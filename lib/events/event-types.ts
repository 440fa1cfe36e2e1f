// The events a clinic's webhook endpoints can subscribe to (DECISIONS "Events out") and the `data` each carries.
// Data holds ids, states and integer cents: never a patient's name, birth date or member id (an endpoint is a
// URL a clinic typed; the integrator reads the details through the API with its own credentials).
import { z } from 'zod';

export const EVENT_TYPES = [
  'claim.accepted',
  'claim.rejected',
  'claim.paid',
  'claim.partially_paid',
  'claim.denied',
  'remittance.posted',
  'eligibility.status_changed',
  'emr.pull.completed',
  'emr.pull.failed',
  'payout.disbursed',
  'payout.returned',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EventTypeName = z.enum(EVENT_TYPES, { message: `Each event must be one of ${EVENT_TYPES.join(', ')}` });

/** The `data` of each type: what an integrator may rely on (docs/webhooks.md shows each). */
export type EventData = {
  'claim.accepted': { claimId: string; status: string };
  'claim.rejected': { claimId: string; status: string; reasons: string[] };
  'claim.paid': ClaimPaymentData;
  'claim.partially_paid': ClaimPaymentData;
  'claim.denied': ClaimPaymentData;
  'remittance.posted': { remittanceId: string; paymentCents: number; claimCount: number; traceNumber: string | null };
  'eligibility.status_changed': {
    patientId: string;
    checkId: string;
    /** The clinic day pre-verified. */
    date: string;
    previousStatus: string;
    status: string;
  };
  'emr.pull.completed': { runId: string; connectionId: string | null; kind: string; counts: Record<string, number> };
  'emr.pull.failed': { runId: string; connectionId: string | null; kind: string };
  'payout.disbursed': { instructionId: string; amountCents: number; railReference: string };
  /** An ACH return of a payout's entry (lib/payouts/return-payout.ts): the amount returned and the NACHA code. */
  'payout.returned': { instructionId: string; amountCents: number; returnCode: string };
  'webhook.test': { endpointId: string };
};

type ClaimPaymentData = { claimId: string; remittanceId: string; paidCents: number; chargeCents: number };

/** A failed step of the reported change, with a typed code (SPEC "Events" 8). */
export type EventError = { code: string; message: string };
