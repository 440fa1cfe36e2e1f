'use client';
// The editor on /claims/new: a submitted claim opens its own page with the timeline.
import { useRouter } from 'next/navigation';
import { ClaimEditor, type ClaimPrefill } from '@/components/billing/claim-editor';

export function NewClaim({ today, prefill }: { today: string; prefill?: ClaimPrefill }) {
  const router = useRouter();
  return (
    <ClaimEditor
      today={today}
      prefill={prefill}
      onSubmitted={(claimId) => router.push(`/claims/${encodeURIComponent(claimId)}`)}
    />
  );
}
