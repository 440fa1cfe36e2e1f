// A claim as GET /api/claims/{id} and /transmissions answer it, as the claim screen's parts read it.
import type { ClaimDraftView } from '@/components/billing/claim-form';
import type { RelatedClaim } from './second-pass';

export type TimelineEvent = {
  kind: string;
  at: string;
  fromStatus: string | null;
  toStatus: string | null;
  detail?: unknown;
};

export type Appeal = { reason: string; createdAt?: string; at?: string; createdBy?: string };

export type ClaimDetail = Omit<ClaimDraftView, 'lines'> & {
  status: string;
  totalChargeCents: number;
  paidCents?: number;
  patientResponsibilityCents?: number;
  adjustmentCents?: number;
  writtenOffCents?: number;
  balanceCents?: number;
  nextAction?: string | null;
  nextActionReason?: string | null;
  payerId?: string | null;
  payerName?: string | null;
  memberId?: string | null;
  submittedAt?: string | null;
  createdAt?: string;
  statusReason?: string | null;
  lines: (NonNullable<ClaimDraftView['lines']>[number] & { paidCents?: number })[];
  timeline?: TimelineEvent[];
  appeals?: Appeal[];
  frequency?: string;
  payerRank?: string;
  payerClaimId?: string | null;
  relatedClaims?: RelatedClaim[];
};

export type Transmission = { direction: 'out' | 'in'; kind: string; at: string; controlNumber: string; x12: string };
