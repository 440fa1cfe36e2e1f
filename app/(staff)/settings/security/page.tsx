// /settings/security: the signed-in user's MFA (authenticator app + backup codes) and passkeys, over the same
// /api/auth routes integrators use. Changes that need a fresh confirmation open the shared step-up dialog.
import { SecuritySettings } from './security-settings';

export const metadata = { title: 'Security · Clinic Revenue Platform' };

export default function SecurityPage() {
  return (
    <>
      <h1>Security</h1>
      <SecuritySettings />
    </>
  );
}
