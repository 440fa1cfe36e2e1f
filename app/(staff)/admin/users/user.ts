// A user of the clinic as GET /api/users answers it, as the users screen and its forms read it.

export type User = {
  id: string;
  email: string;
  scopes: string[];
  mfaEnabled: boolean;
  locked: boolean;
  lockedUntil: string | null;
  deactivated: boolean;
  invitationPending: boolean;
  createdAt: string;
};
