// The account's security state as the security screen reads it (two-step verification, backup codes, passkeys), and
// the sentence for a failed change.
import { describeApiError } from '@/components/describe-api-error';
import { isStepUpCancelled } from '@/components/step-up-prompt';

/** The sentence for a failed change; a cancelled step-up is no failure, so it says nothing. */
export const failureOf = (error: unknown): string | null => (isStepUpCancelled(error) ? null : describeApiError(error));

export type Status = { mfaEnabled: boolean; backupCodesRemaining: number; passkeyCount: number };

export type Passkey = {
  id: string;
  name: string | null;
  deviceType: string;
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
};
