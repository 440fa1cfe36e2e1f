// Tenancy matrix, scope half (generated from the registry): for every endpoint that names a scope, a user of
// the same clinic holding every other scope is refused with 403 SCOPE_MISSING, before any input is read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@/lib/api/registry';
import { SCOPES } from '@/lib/auth/scopes';
import { startApp, type TestApp } from '../support/app';
import { stepUpHeader } from '../support/step-up-claim';
import { signIn } from '../support/http';
import { createTenant, createUser } from '../support/factories';
import { concretePath } from '../support/routes';
import { errorFacts } from '../support/error-body';

describe('scope checks on every scoped endpoint', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('answers 403 SCOPE_MISSING to a user holding every scope but the one the endpoint needs', async () => {
    const scoped = ENDPOINTS.filter((e) => e.auth === 'session' && e.scope);
    expect(scoped.length).toBeGreaterThan(5);
    const tenant = await createTenant(app.db);
    for (const scope of new Set(scoped.map((e) => e.scope!))) {
      const user = await createUser(app.db, tenant, { scopes: SCOPES.filter((s) => s !== scope) });
      const client = await signIn(app, user.email, user.password);
      const stepUp = await stepUpHeader(app, user.email);
      for (const e of scoped.filter((x) => x.scope === scope)) {
        const res = await client.request(e.method, concretePath(e.path), {
          ...(e.body ? { json: {} } : {}),
          headers: stepUp,
        });
        // FHIR routes answer the same facts as an OperationOutcome.
        expect({ route: `${e.method} ${e.path}`, status: res.status, error: errorFacts(res.body) }).toEqual({
          route: `${e.method} ${e.path}`,
          status: 403,
          error: {
            code: 'SCOPE_MISSING',
            message: `This action needs the ${scope} scope`,
            correlationId: expect.any(String),
          },
        });
      }
    }
  });
});
