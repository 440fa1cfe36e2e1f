// The published contract itself: /api/openapi.json is valid OpenAPI 3.1 (checked with a maintained validator),
// and every registered endpoint documents its auth, scope, step-up and error codes. That every response the
// suite sees matches it is checked by test/support/http.ts on each request (test/support/contract.ts).
import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildOpenApi, errorCodesOf } from '@/lib/api/build-openapi';
import { ENDPOINTS } from '@/lib/api/registry';
import { ERROR_STATUS } from '@/lib/errors';

describe('the OpenAPI document', () => {
  const doc = buildOpenApi('http://localhost:3000') as any;

  it('validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('documents each endpoint with its security, scope, step-up and a response for each error code it can answer', () => {
    for (const e of ENDPOINTS) {
      const op = doc.paths[e.path][e.method.toLowerCase()];
      expect(op['x-scope'], `${e.method} ${e.path}`).toBe(e.scope ?? null);
      expect(op['x-step-up']).toBe(!!e.stepUp);
      expect(op.security.length > 0).toBe(e.auth !== 'public');
      for (const code of errorCodesOf(e)) {
        const status = String(ERROR_STATUS[code]);
        expect(op.responses[status], `${e.method} ${e.path} documents ${status} for ${code}`).toBeDefined();
      }
    }
  });
});
