// The account's security state as the security screen reads it (two-step verification, backup codes, passkeys).

export type Status = { mfaEnabled: boolean; backupCodesRemaining: number; passkeyCount: number };

export type Passkey = {
  id: string;
  name: string | null;
  deviceType: string;
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
};
