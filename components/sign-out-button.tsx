'use client';
import { signOut } from './sign-out';

export function SignOutButton() {
  return (
    <button
      type="button"
      className="secondary"
      onClick={async () => {
        await signOut();
        window.location.assign('/login');
      }}
    >
      Sign out
    </button>
  );
}
