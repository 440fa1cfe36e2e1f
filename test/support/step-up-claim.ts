// A step-up claim minted exactly as POST /api/auth/step-up mints it, for tests of gated routes (the step-up
// route and its factors are tested in auth-step-up.test.ts). Returns the header that carries it.
import { mintStepUpClaim } from '@/lib/auth/step-up';
import { TEST_SECRETS, type TestApp } from './app';
import type { HttpClient } from './http';

export async function stepUpHeader(app: Pick<TestApp, 'db'>, email: string): Promise<{ 'x-svc-step-up': string }> {
  const user = await app.db.user.findUniqueOrThrow({ where: { email } });
  const { token } = await mintStepUpClaim(
    { userId: user.id, orgId: user.orgId, sessionVersion: user.sessionVersion },
    'password',
    TEST_SECRETS.STEP_UP_SECRET,
    new Date(),
  );
  return { 'x-svc-step-up': token };
}

/**
 * Puts a fresh step-up claim for the client's own user in its cookie jar, as a browser holds it after
 * POST /api/auth/step-up (cookie svc-step-up): the client's gated requests of the next 300 s pass the step-up.
 * For tests whose subject is something else behind a gated route (creating an EMR connection to test a pull).
 */
export async function holdStepUp(app: Pick<TestApp, 'db'>, client: HttpClient): Promise<HttpClient> {
  const session = await client.get('/api/auth/session');
  const email = session.body?.user?.email;
  if (typeof email !== 'string') throw new Error(`holdStepUp: the client is not signed in (${session.status})`);
  client.cookies.set('svc-step-up', (await stepUpHeader(app, email))['x-svc-step-up']);
  return client;
}
