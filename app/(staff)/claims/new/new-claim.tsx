'use client';
// The editor on /claims/new: a submitted claim opens its own page with the timeline.
import { useRouter } from 'next/navigation';
import { ClaimEditor } from '@/components/billing/claim-editor';

export function NewClaim({ today }: { today: string }) {
  const router = useRouter();
  return <ClaimEditor today={today} onSubmitted={(claimId) => router.push(`/claims/${encodeURIComponent(claimId)}`)} />;
}
