// Home: the signed-in user's work (GET /api/home), each count a link to the list it counts, and only what their
// role can open.
import { headers } from 'next/headers';
import { findCurrentPrincipal } from '@/lib/http/find-current-principal';
import { HomeScreen } from './home-screen';

export default async function HomePage() {
  const principal = await findCurrentPrincipal(await headers());
  const scopes: readonly string[] = principal?.scopes ?? [];
  return (
    <>
      <h1>Today’s work</h1>
      <HomeScreen canSeeDashboard={scopes.includes('claims:read') && scopes.includes('svcpay:read')} />
    </>
  );
}
