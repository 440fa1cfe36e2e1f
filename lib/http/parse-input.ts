// Untrusted params, query or body to a typed value through the endpoint's zod schema. A failure is
// VALIDATION_FAILED with each field's path (`body.amount`); text holding NUL is refused before the schema runs.
import type { z } from 'zod';
import { AppError, type ErrorIssue } from '../errors';

export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'params' | 'query' | 'body',
): z.infer<S> {
  const nulAt = findNul(value);
  if (nulAt) {
    throw new AppError('VALIDATION_FAILED', `The request ${where} is not valid`, {
      issues: [{ path: [where, ...nulAt].join('.'), message: 'Text may not contain NUL characters' }],
    });
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues: ErrorIssue[] = result.error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  throw new AppError('VALIDATION_FAILED', `The request ${where} is not valid`, { issues });
}

/**
 * The path of the first string (or key) holding a NUL character, or null. PostgreSQL text cannot store NUL, so
 * such input is refused at the door rather than failing in the database. Iterative: bodies may nest deeply.
 */
function findNul(value: unknown): string[] | null {
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (stack.length) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path;
    } else if (v && typeof v === 'object') {
      for (const [key, child] of Object.entries(v)) {
        if (key.includes('\u0000')) return [...path, key];
        stack.push({ value: child, path: [...path, key] });
      }
    }
  }
  return null;
}
