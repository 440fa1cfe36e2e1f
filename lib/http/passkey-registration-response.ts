// POST /api/auth/webauthn/register at the edge: step options sets the ceremony's pointer cookie; a saved passkey
// is sent as JSON with that cookie cleared (its challenge is spent).
import type { PasskeyRegistrationOutcome } from '../auth/register-passkey';
import type { RenderContext } from './route';
import { clearCeremonyCookie, renderCeremonyStarted } from './ceremony-cookie';
import { withCookies } from './cookies';
import { json } from './responses';

export function renderPasskeyRegistration(outcome: PasskeyRegistrationOutcome, { config }: RenderContext): Response {
  if (outcome.kind === 'ceremony-started') return renderCeremonyStarted(outcome, config.appUrl);
  return withCookies(json(outcome.body), [clearCeremonyCookie('register', config.appUrl)]);
}
