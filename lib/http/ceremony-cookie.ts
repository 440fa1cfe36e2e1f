// The WebAuthn ceremony pointer as a cookie: one per purpose, scoped to the route that finishes the ceremony and
// living as long as its challenge. lib/auth/webauthn-challenge.ts issues and spends the pointer; this module
// carries it between the two steps of a ceremony.
import type { CeremonyPointer, CeremonyPurpose, CeremonyStarted } from '../auth/webauthn-challenge';
import { readCookie } from '../auth/session-token';
import type { Config } from '../config';
import { AppError, isAppError } from '../errors';
import { buildCookie, clearCookie, withCookies } from './cookies';
import { json } from './responses';

const CEREMONY_COOKIES: Record<CeremonyPurpose, { name: string; path: string }> = {
  register: { name: 'svc-webauthn-reg', path: '/api/auth/webauthn/register' },
  'step-up': { name: 'svc-webauthn-auth', path: '/api/auth/step-up' },
};

function ceremonyCookie(pointer: CeremonyPointer, appUrl: string): string {
  const cookie = CEREMONY_COOKIES[pointer.purpose];
  return buildCookie(cookie.name, pointer.sealed, { maxAgeSeconds: pointer.maxAgeSeconds, path: cookie.path, appUrl });
}

/** A ceremony's first step: the options as JSON, and the pointer in its cookie. */
export function renderCeremonyStarted(started: CeremonyStarted, appUrl: string): Response {
  return withCookies(json(started.body), [ceremonyCookie(started.ceremony, appUrl)]);
}

/** The Set-Cookie value that ends a ceremony's cookie; sent with every answer to a verify, success or not. */
export function clearCeremonyCookie(purpose: CeremonyPurpose, appUrl: string): string {
  const cookie = CEREMONY_COOKIES[purpose];
  return clearCookie(cookie.name, { path: cookie.path, appUrl });
}

/**
 * Runs one step of a passkey ceremony with the pointer the request's cookie carries. A verify spends the
 * challenge, so every answer to it clears the cookie: a refusal here (the error gains the Set-Cookie), a
 * success in the endpoint's renderer.
 */
export async function runCeremonyStep<T>(
  request: Request,
  config: Pick<Config, 'appUrl'>,
  step: { purpose: CeremonyPurpose; isVerify: boolean },
  run: (sealedPointer: string | undefined) => Promise<T>,
): Promise<T> {
  const sealedPointer = readCookie(request.headers, CEREMONY_COOKIES[step.purpose].name);
  if (!step.isVerify) return run(sealedPointer);
  try {
    return await run(sealedPointer);
  } catch (error) {
    if (!isAppError(error)) throw error;
    const headers = { ...error.options.headers, 'set-cookie': clearCeremonyCookie(step.purpose, config.appUrl) };
    throw new AppError(error.code, error.message, { ...error.options, headers });
  }
}
