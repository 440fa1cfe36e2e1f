// POST /api/auth/step-up: re-authenticates the signed-in user with one factor (password, mfa = TOTP or backup
// code, or webauthn in two phases) and mints the 300 s step-up claim, bound to org, user and sessionVersion.
// Every attempt is audited with its correlation id; failures count against the per-user factor limit.
// Does not decide which routes need the claim (endpoint `stepUp: true`, checked by the wrapper), nor how the
// claim and the ceremony pointer reach the browser (lib/http: cookies).
import { z } from 'zod';
import { requireSealKey, requireStepUpSecret, requireWebAuthn } from '../config';
import type { Deps } from '../deps';
import { AppError, isAppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import { assertFactorAttemptsLeft, releaseFactorAttempt, reserveFactorAttempt } from './factor-rate-limit';
import { verifyPassword } from './password';
import type { Principal } from './principal';
import { verifySecondFactor } from './second-factor';
import { STEP_UP_TTL_SECONDS } from './rate-limit-policy';
import { mintStepUpClaim, type StepUpFactor } from './step-up';
import { buildPasskeyAssertionOptions, verifyPasskeyAssertion } from './verify-passkey-assertion';
import { consumeWebAuthnChallenge, issueWebAuthnChallenge, type CeremonyStarted } from './webauthn-challenge';
import { AuthenticationResponseJson, CeremonyOptions } from './webauthn-schemas';

export const StepUpBody = z.object({
  factor: z.enum(['mfa', 'password', 'webauthn']).optional(),
  /** TOTP code or backup code, for factor mfa. */
  token: z.string().max(64).optional(),
  password: z.string().max(1024).optional(),
  /** webauthn only: options starts the ceremony, verify completes it with `response`. */
  step: z.enum(['options', 'verify']).optional(),
  response: AuthenticationResponseJson.optional(),
});
export type StepUpBody = z.infer<typeof StepUpBody>;

export const StepUpGranted = z.object({
  ok: z.literal(true),
  stepUpToken: z.string(),
  expiresAt: z.iso.datetime(),
  ttlSeconds: z.number().int(),
});

export const StepUpAnswer = z.union([StepUpGranted, CeremonyOptions]);

/**
 * The claim granted (its token and lifetime are in `body`; `ceremonyEnded` when a passkey's challenge was spent
 * on it), or a passkey ceremony started.
 */
export type StepUpOutcome =
  { kind: 'granted'; body: z.infer<typeof StepUpGranted>; ceremonyEnded: boolean } | CeremonyStarted;

/** `sealedPointer`: the ceremony pointer the browser kept from step options (webauthn verify only). */
type Input = { principal: Principal; correlationId: string; body: StepUpBody; sealedPointer: string | undefined };
type User = {
  id: string;
  passwordHash: string;
  mfaEnabled: boolean;
  mfaSecretSealed: string | null;
  mfaLastTimeStep: bigint | null;
  passkeyCount: number;
};

const FAILURE_MESSAGES: Record<StepUpFactor, string> = {
  password: 'The password is not correct',
  mfa: 'The code is not valid or was already used',
  webauthn: 'The passkey could not be verified',
};

const invalidField = (path: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { issues: [{ path: `body.${path}`, message }] });

export async function grantStepUp(deps: Deps, input: Input): Promise<StepUpOutcome> {
  const { db, config } = deps;
  const { principal, body } = input;
  const now = deps.clock();
  const trail = auditTrail(deps, input);

  const stepUpSecret = await trail.configured(() => requireStepUpSecret(config));
  const row = await db.user.findUnique({
    where: { id: principal.userId },
    select: {
      id: true,
      passwordHash: true,
      mfaEnabled: true,
      mfaSecretSealed: true,
      mfaLastTimeStep: true,
      _count: { select: { passkeys: true } },
    },
  });
  if (!row) return trail.refuse('user-not-found', new AppError('NOT_FOUND', 'No such user'));
  const user: User = { ...row, passkeyCount: row._count.passkeys };
  const factor: StepUpFactor = body.factor ?? (user.mfaEnabled ? 'mfa' : 'password');
  trail.factor = factor;

  if (factor !== 'webauthn') return verifyAndMint(await prepareSecretCheck(factor));

  const rp = await trail.configured(() => requireWebAuthn(config));
  const authSecret = config.authSecret!; // the wrapper has just verified the session with it
  if (user.passkeyCount === 0)
    return trail.refuse('no-passkeys', invalidField('factor', 'This account has no passkey; choose another factor'));
  if (body.step === 'options') {
    await assertFactorAttemptsLeft(db, 'step-up', user.id, now).catch((error) => trail.refuse('rate-limited', error));
    const options = await buildPasskeyAssertionOptions(db, user.id, rp);
    const ceremony = await issueWebAuthnChallenge(deps, {
      challenge: options.challenge,
      userId: user.id,
      purpose: 'step-up',
      now,
      authSecret,
    });
    await trail.record('success', undefined, 'step-up.challenge');
    return { kind: 'ceremony-started', body: CeremonyOptions.parse({ options }), ceremony };
  }
  if (body.step !== 'verify')
    return trail.refuse('missing-step', invalidField('step', 'step must be options or verify for a passkey'));
  const response = body.response;
  if (!response)
    return trail.refuse('missing-response', invalidField('response', 'response is required to verify a passkey'));
  const challenge = await consumeWebAuthnChallenge(deps, {
    sealedPointer: input.sealedPointer,
    userId: user.id,
    purpose: 'step-up',
    now,
    authSecret,
  }).catch((error) => trail.refuse('challenge-missing', error));
  return verifyAndMint(() => verifyPasskeyAssertion(db, { userId: user.id, response, challenge, rp, now }));

  /** The password or mfa check, after the body and configuration have been found able to run it. */
  async function prepareSecretCheck(secretFactor: 'password' | 'mfa'): Promise<() => Promise<boolean>> {
    if (secretFactor === 'password') {
      const password = body.password;
      if (!password) return trail.refuse('missing-password', invalidField('password', 'Enter your password'));
      return () => verifyPassword(password, user.passwordHash);
    }
    if (!user.mfaEnabled)
      return trail.refuse(
        'mfa-not-enabled',
        invalidField('factor', 'This account has no authenticator app; choose another factor'),
      );
    const token = body.token?.trim();
    if (!token)
      return trail.refuse(
        'missing-token',
        invalidField('token', 'Enter the code from your authenticator app or a backup code'),
      );
    const sealKey = await trail.configured(() => requireSealKey(config));
    return () => verifySecondFactor(deps, user, token, { sealKey, now });
  }

  async function verifyAndMint(verify: () => Promise<boolean>): Promise<StepUpOutcome> {
    // The slot is taken before the check, so parallel guesses cannot outrun the limit; success gives it back.
    const attempt = await reserveFactorAttempt(db, 'step-up', user.id, now).catch((error) =>
      trail.refuse('rate-limited', error),
    );
    if (!(await verify()))
      return trail.refuse('factor-did-not-verify', new AppError('INVALID_CREDENTIALS', FAILURE_MESSAGES[factor]));
    await releaseFactorAttempt(db, attempt);
    const { token, expiresAt } = await mintStepUpClaim(principal, factor, stepUpSecret, now);
    await trail.record('success');
    const granted = StepUpGranted.parse({
      ok: true,
      stepUpToken: token,
      expiresAt: expiresAt.toISOString(),
      ttlSeconds: STEP_UP_TTL_SECONDS,
    });
    return { kind: 'granted', body: granted, ceremonyEnded: factor === 'webauthn' };
  }
}

/** Audit rows for one step-up request; every refusal is recorded before it is thrown. */
function auditTrail(deps: Deps, input: Input) {
  const { principal, body, correlationId } = input;
  const trail = {
    factor: body.factor as StepUpFactor | undefined,
    record(outcome: 'success' | 'failure' | 'refused', reason?: string, action = 'step-up') {
      return recordAudit(deps.db, {
        action,
        outcome,
        correlationId,
        userId: principal.userId,
        orgId: principal.orgId,
        clinicId: principal.clinicId,
        detail: {
          factor: trail.factor ?? null,
          ...(body.step && trail.factor === 'webauthn' ? { step: body.step } : {}),
          ...(reason ? { reason } : {}),
        },
      });
    },
    /** A factor that did not verify is a failure; anything else that stops the attempt is a refusal. */
    async refuse(reason: string, error: unknown): Promise<never> {
      if (!isAppError(error)) throw error; // an unexpected fault is the wrapper's 500, not an attempt
      await trail.record(error.code === 'INVALID_CREDENTIALS' ? 'failure' : 'refused', reason);
      throw error;
    },
    /** Runs a config accessor; its typed 503 is audited as a refusal. */
    async configured<T>(accessor: () => T): Promise<T> {
      try {
        return accessor();
      } catch (error) {
        return trail.refuse('unconfigured', error);
      }
    },
  };
  return trail;
}
