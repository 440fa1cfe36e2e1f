// The auth surface beyond next-auth's own sign-in: step-up, TOTP MFA, passkeys (SPEC "Authentication",
// DECISIONS "Sessions, step-up, factors").
import { z } from 'zod';
import { endpoint } from '../endpoint';
import { ChangeMfaBody, MfaChanged } from './change-mfa';
import { StepUpFactors } from './describe-step-up-factors';
import { StepUpAnswer, StepUpBody } from './grant-step-up';
import { PasskeyList } from './list-passkeys';
import { RegisterPasskeyAnswer, RegisterPasskeyBody } from './register-passkey';
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
  summary: 'enable (secret + code; returns 10 backup codes once, ends every session) or disable (step-up claim + code)',
  body: ChangeMfaBody,
  response: MfaChanged,
  stepUpWhen: (body: ChangeMfaBody) => body.action === 'disable',
  errors: ['NOT_FOUND', 'RATE_LIMITED', 'STEP_UP_REQUIRED', 'DEPENDENCY_UNAVAILABLE'],
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
  postPasskeyRegistration,
  getPasskeys,
  deletePasskey,
];
