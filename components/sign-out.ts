// Signs the browser out through next-auth (the server revokes the session and clears the step-up cookie).
import { postNextAuthForm } from './post-next-auth-form';

/**
 * Resolves whatever the server answered: the caller goes to /login either way, as the user asked, and a failed
 * revocation is logged on the server (lib/auth/next-auth.ts).
 */
export async function signOut(): Promise<void> {
  await postNextAuthForm('signout').catch(() => undefined);
}
