// A step-up claim minted exactly as POST /api/auth/step-up mints it, for tests of gated routes (the step-up
// route and its factors are tested in auth-step-up.test.ts). Returns the header that carries it.
import { mintStepUpClaim } from '@/lib/auth/step-up';
import { TEST_SECRETS, type TestApp } from './app';

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
