// The auth surface beyond next-auth's own sign-in: step-up, TOTP MFA, passkeys (SPEC "Authentication",
// DECISIONS "Sessions, step-up, factors").
import { z } from 'zod';
import { endpoint } from '../endpoint';
import { ChangeMfaBody, MfaChanged } from './change-mfa';
import { StepUpFactors } from './describe-step-up-factors';
import { StepUpAnswer, StepUpBody } from './grant-step-up';
import { PasskeyList } from './list-passkeys';
import { RegisterPasskeyAnswer, RegisterPasskeyBody } from './register-passkey';
import { BackupCodes } from './regenerate-backup-codes';
import { MfaEnrolment } from './start-mfa-enrolment';

export const getStepUpFactors = endpoint({
  method: 'GET',
  path: '/api/auth/step-up',
  tags: ['auth'],
  auth: 'session',
  summary: 'The step-up factors this account can use (and its default), MFA status and passkey count',
  response: StepUpFactors,
  errors: ['NOT_FOUND'],
});

export const postStepUp = endpoint({
  method: 'POST',
  path: '/api/auth/step-up',
  tags: ['auth'],
  auth: 'session',
  summary:
    'Step-up: re-authenticate with password, mfa (TOTP or backup code) or webauthn (step options, then verify); ' +
    'answers a 300 s claim as stepUpToken and the httpOnly cookie svc-step-up',
  body: StepUpBody,
  response: StepUpAnswer,
  errors: ['NOT_FOUND', 'INVALID_CREDENTIALS', 'RATE_LIMITED', 'DEPENDENCY_UNAVAILABLE'],
});

export const getMfaEnrolment = endpoint({
  method: 'GET',
  path: '/api/auth/mfa',
  tags: ['auth'],
  auth: 'session',
  summary: 'A fresh TOTP secret and otpauth:// URL to enrol an authenticator app; stores nothing',
  response: MfaEnrolment,
  errors: ['DEPENDENCY_UNAVAILABLE'],
});

export const postMfa = endpoint({
  method: 'POST',
  path: '/api/auth/mfa',
  tags: ['auth'],
  auth: 'session',
  summary:
    'enable (secret + code; returns 10 backup codes once, ends every session) or disable (code); either needs a ' +
    'step-up claim (an MFA change, DECISIONS "Security findings of 2026-11-28")',
  stepUp: true,
  body: ChangeMfaBody,
  response: MfaChanged,
  errors: ['NOT_FOUND', 'RATE_LIMITED', 'DEPENDENCY_UNAVAILABLE'],
});

export const postBackupCodes = endpoint({
  method: 'POST',
  path: '/api/auth/mfa/backup-codes',
  tags: ['auth'],
  auth: 'session',
  summary:
    'A new set of 10 backup codes, shown once; every earlier code of yours stops working at once. MFA must be on ' +
    '(422 otherwise). Step-up, audited; sessions stay',
  stepUp: true,
  response: BackupCodes,
  errors: ['UNPROCESSABLE'],
});

export const postPasskeyRegistration = endpoint({
  method: 'POST',
  path: '/api/auth/webauthn/register',
  tags: ['auth'],
  auth: 'session',
  stepUp: true,
  summary:
    'Passkey registration: step options (sets the challenge cookie svc-webauthn-reg), then verify with the attestation',
  body: RegisterPasskeyBody,
  response: RegisterPasskeyAnswer,
  errors: ['INVALID_CREDENTIALS', 'RATE_LIMITED', 'DEPENDENCY_UNAVAILABLE'],
});

export const getPasskeys = endpoint({
  method: 'GET',
  path: '/api/auth/webauthn/credentials',
  tags: ['auth'],
  auth: 'session',
  summary: "The caller's passkeys (no key material)",
  response: PasskeyList,
});

export const deletePasskey = endpoint({
  method: 'DELETE',
  path: '/api/auth/webauthn/credentials/{id}',
  tags: ['auth'],
  auth: 'session',
  stepUp: true,
  summary: "Removes one of the caller's passkeys",
  params: z.object({ id: z.string().min(1).max(1400) }),
  successStatus: 204,
  errors: ['NOT_FOUND'],
});

export const authEndpoints = [
  getStepUpFactors,
  postStepUp,
  getMfaEnrolment,
  postMfa,
  postBackupCodes,
  postPasskeyRegistration,
  getPasskeys,
  deletePasskey,
];
