// Untrusted params, query or body to a typed value through the endpoint's zod schema. A failure is
// VALIDATION_FAILED with each field's path (`body.amount`); text holding NUL or a lone surrogate is refused before
// the schema runs, whatever the route (DECISIONS "Security findings of 2026-11-28": no input gives a 5xx).
import type { z } from 'zod';
import { AppError, type ErrorIssue } from '../errors';

export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'params' | 'query' | 'body',
): z.infer<S> {
  const unsafe = findUnstorableText(value);
  if (unsafe) {
    throw new AppError('VALIDATION_FAILED', `The request ${where} is not valid`, {
      issues: [{ path: [where, ...unsafe.path].join('.'), message: unsafe.message }],
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

const NUL_MESSAGE = 'Text may not contain NUL characters';
// In a `u` regex a well-formed pair is one code point, so only an unpaired half matches.
const LONE_SURROGATE = /\p{Surrogate}/u;
const SURROGATE_MESSAGE = 'Text must be valid Unicode (a lone surrogate such as \\ud800 is not)';

/** Why a string cannot be stored as text, or null: PostgreSQL text holds neither NUL nor a lone UTF-16 surrogate. */
function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(text)) return SURROGATE_MESSAGE;
  return null;
}

/**
 * The path of the first string (or key) PostgreSQL could not store, with why, or null. JSON may carry both NUL and
 * a lone surrogate as escapes (`"\u0000"`, `"\ud800"`), and a decoded path parameter can hold NUL: refused at the
 * door rather than failing in the database (a 500). Iterative: bodies may nest deeply.
 */
function findUnstorableText(value: unknown): { path: string[]; message: string } | null {
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (stack.length) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      const message = textProblem(v);
      if (message) return { path, message };
    } else if (v && typeof v === 'object') {
      for (const [key, child] of Object.entries(v)) {
        const message = textProblem(key);
        if (message) return { path: [...path, key], message };
        stack.push({ value: child, path: [...path, key] });
      }
    }
  }
  return null;
}
