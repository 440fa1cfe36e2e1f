// User management for a clinic admin (scope users:admin; DECISIONS "Staff app"): list, invite with scopes (never
// one the admin does not hold), change scopes, unlock, reset MFA, deactivate; each change needs a step-up claim and
// is audited, and reaches only users whose scopes are all the admin's own (403 otherwise).
// Also the two routes every user has: accepting an invitation (public: the token is the credential) and
// changing one's own password.
import { endpoint } from '../endpoint';
import type { ErrorCode } from '../errors';
import { ChangeUserScopesBody } from './change-user-scopes';
import { AcceptedInvitation, AcceptInvitationBody } from './accept-invitation';
import { ChangePasswordBody, PasswordChanged } from './change-password';
import { InviteUserBody, Invitation } from './invite-user';
import { UserList } from './list-users';
import { UserEnvelope, UserParams } from './user-view';

const tags = ['users'];

export const listUsersEndpoint = endpoint({
  method: 'GET',
  path: '/api/users',
  tags,
  summary:
    "The clinic's users, newest first, at most 100: e-mail, scopes, MFA, locked, deactivated, invitation pending " +
    '(never a hash, secret or code)',
  auth: 'session',
  scope: 'users:admin',
  response: UserList,
});

export const inviteUserEndpoint = endpoint({
  method: 'POST',
  path: '/api/users',
  tags,
  summary:
    "Invite a user to the caller's clinic with some of the caller's own scopes (a scope the caller does not hold " +
    'is 403). Answers the invitation link once (7 days, single use; only its hash is stored). Step-up, audited',
  auth: 'session',
  scope: 'users:admin',
  stepUp: true,
  body: InviteUserBody,
  response: Invitation,
  successStatus: 201,
  errors: ['FORBIDDEN'],
});

const REACH = "Step-up, audited; another clinic's user is 404, a user holding a scope the caller does not hold is 403";

const userAction = (action: string, summary: string, errors: ErrorCode[] = ['NOT_FOUND', 'FORBIDDEN']) =>
  endpoint({
    method: 'POST',
    path: `/api/users/{id}/${action}`,
    tags,
    summary: `${summary}. ${REACH}`,
    auth: 'session',
    scope: 'users:admin',
    stepUp: true,
    params: UserParams,
    response: UserEnvelope,
    errors,
  });

export const unlockUserEndpoint = userAction('unlock', 'End a sign-in lock early and clear the failure count');
export const resetUserMfaEndpoint = userAction(
  'reset-mfa',
  "Turn off the user's authenticator-app MFA and drop their backup codes (ends their sessions; passkeys stay)",
);
export const deactivateUserEndpoint = userAction(
  'deactivate',
  'Deactivate the user: sign-in refused and every session of theirs ends (not yourself: 422)',
  ['NOT_FOUND', 'FORBIDDEN', 'UNPROCESSABLE'],
);

export const changeUserScopesEndpoint = endpoint({
  method: 'PATCH',
  path: '/api/users/{id}',
  tags,
  summary:
    "Change a user's scopes (the whole new set, only scopes the caller holds; not your own: 422). A removed scope " +
    `stops at the user's next request, an added one comes with their next sign-in. ${REACH}`,
  auth: 'session',
  scope: 'users:admin',
  stepUp: true,
  params: UserParams,
  body: ChangeUserScopesBody,
  response: UserEnvelope,
  errors: ['NOT_FOUND', 'FORBIDDEN', 'UNPROCESSABLE'],
});

export const acceptInvitationEndpoint = endpoint({
  method: 'POST',
  path: '/api/users/invitations/accept',
  tags,
  summary:
    "Accept an invitation: the link's token and a new password (at least 12 characters). Public: the single-use " +
    'token is the credential; an unknown, used or expired one is 400',
  auth: 'public',
  body: AcceptInvitationBody,
  response: AcceptedInvitation,
});

export const changePasswordEndpoint = endpoint({
  method: 'POST',
  path: '/api/auth/password',
  tags: ['auth'],
  summary:
    'Change your own password (current password + new one, at least 12 characters). Ends every other session ' +
    'and step-up claim of yours; a cookie session gets its token re-issued and stays signed in',
  auth: 'session',
  body: ChangePasswordBody,
  response: PasswordChanged,
  errors: ['RATE_LIMITED', 'NOT_FOUND'],
});

export const userEndpoints = [
  listUsersEndpoint,
  inviteUserEndpoint,
  unlockUserEndpoint,
  resetUserMfaEndpoint,
  deactivateUserEndpoint,
  changeUserScopesEndpoint,
  acceptInvitationEndpoint,
  changePasswordEndpoint,
];
