// Awaits a promise that must reject with an AppError and returns that error, so a test can assert its code
// and message (and that a promise which resolves fails the test instead of passing silently).
import { expect } from 'vitest';
import { AppError } from '@/lib/errors';

export async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}
