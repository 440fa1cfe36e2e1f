// POST /api/auth/mfa: enable (confirm a secret from GET /api/auth/mfa with a code) or disable (a code). Both are MFA
// changes, so the endpoint needs a step-up claim, which the wrapper checks before any code is read.
import { z } from 'zod';
import type { Deps } from '../deps';
import { disableMfa } from './disable-mfa';
import { enableMfa } from './enable-mfa';
import type { Principal } from './principal';

export const ChangeMfaBody = z.object({
  action: z.enum(['enable', 'disable']),
  /** Base32 secret from GET /api/auth/mfa; enable only. */
  secret: z.string().max(128).optional(),
  /** Current TOTP code (disable also takes an unused backup code). */
  token: z.string().trim().min(1, 'token is required').max(64),
});
export type ChangeMfaBody = z.infer<typeof ChangeMfaBody>;

export const MfaChanged = z.union([
  z.object({ ok: z.literal(true), backupCodes: z.array(z.string()) }),
  z.object({ ok: z.literal(true) }),
]);

export function changeMfa(deps: Deps, input: { principal: Principal; correlationId: string; body: ChangeMfaBody }) {
  const { body, ...rest } = input;
  return body.action === 'enable'
    ? enableMfa(deps, { ...rest, secret: body.secret, token: body.token })
    : disableMfa(deps, { ...rest, token: body.token });
}
