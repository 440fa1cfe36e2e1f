// POST /api/auth/step-up at the edge: a granted claim goes out in the body and as the svc-step-up cookie (and
// ends the passkey ceremony's cookie when a passkey was the factor); a started ceremony sets its pointer cookie.
import type { StepUpOutcome } from '../auth/grant-step-up';
import type { RenderContext } from './route';
import { clearCeremonyCookie, renderCeremonyStarted } from './ceremony-cookie';
import { withCookies } from './cookies';
import { json } from './responses';
import { stepUpClaimCookie } from './step-up-cookie';

export function renderStepUpOutcome(outcome: StepUpOutcome, { config }: RenderContext): Response {
  if (outcome.kind === 'ceremony-started') return renderCeremonyStarted(outcome, config.appUrl);
  const { stepUpToken, ttlSeconds } = outcome.body;
  const cookies = [stepUpClaimCookie(stepUpToken, ttlSeconds, config.appUrl)];
  if (outcome.ceremonyEnded) cookies.push(clearCeremonyCookie('step-up', config.appUrl));
  return withCookies(json(outcome.body), cookies);
}
