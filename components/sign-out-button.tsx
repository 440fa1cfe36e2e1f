'use client';
import { signOut } from './sign-out';
import { useHydrated } from './use-hydrated';

/** Held until the page hydrates: a click before then would do nothing, and leave the session signed in. */
export function SignOutButton() {
  const hydrated = useHydrated();
  return (
    <button
      type="button"
      className="secondary"
      disabled={!hydrated}
      onClick={async () => {
        await signOut();
        window.location.assign('/login');
      }}
    >
      Sign out
    </button>
  );
}
