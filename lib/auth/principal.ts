// Who is calling: the signed-in staff user as the session token says, re-checked against the user row.
import type { Scope } from './scopes';

export type Principal = {
  userId: string;
  email: string;
  orgId: string;
  clinicId: string;
  scopes: Scope[];
  sessionVersion: number;
  /** The clinic's IANA time zone (read with the user row on every request): its "today" and dates. */
  clinicTimeZone: string;
  /** The session's id (the token's `sid`): a step-up claim is bound to it, so it never outlives its session. */
  sessionId?: string;
  /** When the password (and MFA) were last verified for this session. */
  authenticatedAt: Date;
  /** Cookie sessions are browser sessions and get the Origin check on unsafe methods; bearer callers do not. */
  via: 'cookie' | 'bearer';
};
