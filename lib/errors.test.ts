import { describe, expect, it, vi } from 'vitest';
import { AppError, ERROR_STATUS, isAppError } from './errors';

describe('AppError', () => {
  it('maps each code to exactly one status', () => {
    expect(new AppError('STEP_UP_REQUIRED', 'x').status).toBe(401);
    expect(new AppError('NOT_CONFIGURED', 'x').status).toBe(501);
    expect(Object.keys(ERROR_STATUS)).toContain('IDEMPOTENCY_KEY_REUSED');
  });

  it('is recognised across separately bundled copies of the class (brand, not instanceof)', async () => {
    // A second copy of the module, as Next's instrumentation and route bundles each load their own.
    vi.resetModules();
    const copy = await import('./errors');
    const foreign = new copy.AppError('DEPENDENCY_UNAVAILABLE', 'down');
    expect(foreign instanceof AppError).toBe(false);
    expect(isAppError(foreign)).toBe(true);
    expect(isAppError(new Error('plain'))).toBe(false);
    expect(isAppError({ code: 'NOT_FOUND', message: 'forged object' })).toBe(false);
  });
});
