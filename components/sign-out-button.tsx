'use client';
import { signOut } from './auth-client';

export function SignOutButton() {
  return (
    <button type="button" className="secondary" onClick={async () => { await signOut(); window.location.assign('/login'); }}>
      Sign out
    </button>
  );
}
