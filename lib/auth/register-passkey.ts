// POST /api/auth/webauthn/register: passkey registration in two phases. `options` issues a user- and
// purpose-bound challenge (webauthn-challenge.ts) with the user's passkeys excluded; `verify` spends that
// challenge first, then persists a credential only from a verified attestation. The route itself needs a step-up
// claim: a hijacked session must not be able to plant its own passkey and then step up with it. How the pointer
// reaches the browser (a cookie) is lib/http's.
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type AuthenticatorTransport,
} from '@simplewebauthn/server';
import { z } from 'zod';
import { requireAuthSecret, requireWebAuthn } from '../config';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import { assertFactorAttemptsLeft, releaseFactorAttempt, reserveFactorAttempt } from './factor-rate-limit';
import type { Principal } from './principal';
import { consumeWebAuthnChallenge, issueWebAuthnChallenge, type CeremonyStarted } from './webauthn-challenge';
import { CeremonyOptions, RegistrationResponseJson } from './webauthn-schemas';

export const RegisterPasskeyBody = z.object({
  step: z.enum(['options', 'verify']),
  /** The authenticator's attestation (RegistrationResponseJSON); verify only. */
  response: RegistrationResponseJson.optional(),
  /** A label the user chooses ("Work laptop"); verify only. */
  name: z.string().trim().min(1).max(60).optional(),
});
export type RegisterPasskeyBody = z.infer<typeof RegisterPasskeyBody>;

export const PasskeyRegistered = z.object({
  ok: z.literal(true),
  credentialId: z.string(),
  deviceType: z.string(),
  backedUp: z.boolean(),
});

export const RegisterPasskeyAnswer = z.union([CeremonyOptions, PasskeyRegistered]);

/** A ceremony started, or the passkey saved (which always spends the ceremony's challenge). */
export type PasskeyRegistrationOutcome =
  CeremonyStarted | { kind: 'registered'; body: z.infer<typeof PasskeyRegistered> };

/** `sealedPointer`: the ceremony pointer the browser kept from step options (verify only). */
type Input = {
  principal: Principal;
  correlationId: string;
  body: RegisterPasskeyBody;
  sealedPointer: string | undefined;
};

export async function registerPasskey(deps: Deps, input: Input): Promise<PasskeyRegistrationOutcome> {
  const rp = requireWebAuthn(deps.config); // 503 before the ceremony starts or any row is touched
  return input.body.step === 'options' ? startRegistration(deps, input, rp) : finishRegistration(deps, input, rp);
}

async function startRegistration(
  deps: Deps,
  input: Input,
  rp: ReturnType<typeof requireWebAuthn>,
): Promise<CeremonyStarted> {
  const { db, config } = deps;
  const { principal } = input;
  const now = deps.clock();
  await assertFactorAttemptsLeft(db, 'webauthn', principal.userId, now);
  const existing = await db.webAuthnCredential.findMany({
    where: { userId: principal.userId },
    select: { id: true, transports: true },
  });
  const options = await generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpId,
    userName: principal.email,
    userDisplayName: principal.email,
    // A stable opaque handle (our user id), so one authenticator keeps one passkey per account.
    userID: new TextEncoder().encode(principal.userId),
    attestationType: 'none',
    timeout: 120_000,
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports as AuthenticatorTransport[] })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
  });
  const ceremony = await issueWebAuthnChallenge(deps, {
    challenge: options.challenge,
    userId: principal.userId,
    purpose: 'register',
    now,
    authSecret: requireAuthSecret(config),
  });
  return { kind: 'ceremony-started', body: CeremonyOptions.parse({ options }), ceremony };
}

async function finishRegistration(
  deps: Deps,
  input: Input,
  rp: ReturnType<typeof requireWebAuthn>,
): Promise<PasskeyRegistrationOutcome> {
  const { db, config } = deps;
  const { principal, correlationId, body } = input;
  const now = deps.clock();
  const audit = (
    outcome: 'success' | 'failure' | 'refused',
    detail: Record<string, string>,
    tx: Pick<typeof db, 'auditLog'> = db,
  ) =>
    recordAudit(tx, {
      action: 'passkey.register',
      outcome,
      correlationId,
      userId: principal.userId,
      orgId: principal.orgId,
      clinicId: principal.clinicId,
      detail,
    });
  const response = body.response;
  if (!response) {
    throw new AppError('VALIDATION_FAILED', 'response is required to verify a passkey', {
      issues: [{ path: 'body.response', message: 'Required for step verify' }],
    });
  }
  // Spent before it is checked: a replayed verify finds no challenge, whatever the outcome of this one.
  const challenge = await consumeWebAuthnChallenge(deps, {
    sealedPointer: input.sealedPointer,
    userId: principal.userId,
    purpose: 'register',
    now,
    authSecret: requireAuthSecret(config),
  });
  const attempt = await reserveFactorAttempt(db, 'webauthn', principal.userId, now).catch(async (error) => {
    await audit('refused', { reason: 'rate-limited' });
    throw error;
  });
  const verified = await verifyAttestation(response, challenge, rp);
  if (!verified) {
    await audit('failure', { reason: 'attestation-did-not-verify' });
    throw new AppError('INVALID_CREDENTIALS', 'The passkey could not be verified; nothing was saved');
  }
  await releaseFactorAttempt(db, attempt);
  const { credential, credentialDeviceType, credentialBackedUp } = verified;
  await db.$transaction(async (tx) => {
    const taken = await tx.webAuthnCredential.findUnique({ where: { id: credential.id }, select: { id: true } });
    if (taken)
      throw new AppError('VALIDATION_FAILED', 'This passkey is already registered', {
        issues: [{ path: 'body.response.id', message: 'Already registered' }],
      });
    await tx.webAuthnCredential.create({
      data: {
        id: credential.id,
        userId: principal.userId,
        publicKey: new Uint8Array(credential.publicKey),
        counter: BigInt(credential.counter),
        transports: response.response.transports ?? [],
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
        name: body.name ?? null,
      },
    });
    await audit('success', { credentialId: credential.id }, tx);
  });
  const registered = PasskeyRegistered.parse({
    ok: true,
    credentialId: credential.id,
    deviceType: credentialDeviceType,
    backedUp: credentialBackedUp,
  });
  return { kind: 'registered', body: registered };
}

/** The library's verdict, or null for anything it refuses or cannot parse (garbage never persists). */
async function verifyAttestation(
  response: RegistrationResponseJson,
  challenge: string,
  rp: { rpId: string; origin: string },
) {
  try {
    const result = await verifyRegistrationResponse({
      response: response as Parameters<typeof verifyRegistrationResponse>[0]['response'],
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      requireUserVerification: true,
    });
    return result.verified ? result.registrationInfo : null;
  } catch {
    return null;
  }
}
