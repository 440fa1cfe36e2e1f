// The admin screens' server-side check: the header hides them from users without users:admin, and this says
// so in words for anyone who opens the address anyway (the API refuses them too).
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { Principal } from '@/lib/auth/principal';
import { findCurrentPrincipal } from '@/lib/http/find-current-principal';

export async function requireAdmin(): Promise<(Principal & { clinicName: string }) | 'refused'> {
  const principal = await findCurrentPrincipal(await headers());
  if (!principal) redirect('/login');
  return principal.scopes.includes('users:admin') ? principal : 'refused';
}

export function RoleRefusal() {
  return (
    <p role="alert" className="error">
      Your role can&apos;t do this; ask your clinic admin.
    </p>
  );
}
