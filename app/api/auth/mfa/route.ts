// GET /api/auth/mfa: a fresh TOTP secret to enrol (stores nothing). POST: enable or disable MFA (step-up).
import { route } from '@/lib/http/route';
import { getMfaEnrolment, postMfa } from '@/lib/auth/endpoints';
import { changeMfa } from '@/lib/auth/change-mfa';
import { startMfaEnrolment } from '@/lib/auth/start-mfa-enrolment';

export const GET = route(getMfaEnrolment, ({ principal, deps }) => startMfaEnrolment(deps, { principal }));

export const POST = route(postMfa, ({ body, principal, deps, correlationId }) =>
  changeMfa(deps, { principal, body, correlationId }),
);
