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

// Deeper than any body a route accepts (a FHIR resource nests a dozen levels): a 1 MiB body of `[[[...]]]` is half
// a million levels, which JSON.parse reads (it is iterative) but JSON.stringify, zod and Prisma would recurse into.
const MAX_DEPTH = 64;
const DEPTH_MESSAGE = `Nested deeper than ${MAX_DEPTH} levels`;

/** A node of the walk: its parent and its key there, so a path is built only for the one value refused. */
type Visit = { value: unknown; key: string; parent: Visit | null; depth: number };

function pathOf(visit: Visit): string[] {
  const path: string[] = [];
  for (let at: Visit | null = visit; at?.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The path of the first string (or key) PostgreSQL could not store, or of a value nested past MAX_DEPTH, with why,
 * or null. JSON may carry both NUL and a lone surrogate as escapes (`"\u0000"`, `"\ud800"`), and a decoded path
 * parameter can hold NUL: refused at the door rather than failing in the database (a 500). Iterative and linear in
 * the value's size: a deep body is refused, never a stack overflow or a walk that copies its path at every level.
 */
function findUnstorableText(value: unknown): { path: string[]; message: string } | null {
  const stack: Visit[] = [{ value, key: '', parent: null, depth: 0 }];
  while (stack.length) {
    const visit = stack.pop()!;
    const v = visit.value;
    if (typeof v === 'string') {
      const message = textProblem(v);
      if (message) return { path: pathOf(visit), message };
    } else if (v && typeof v === 'object') {
      if (visit.depth >= MAX_DEPTH) return { path: pathOf(visit), message: DEPTH_MESSAGE };
      for (const [key, child] of Object.entries(v)) {
        const at: Visit = { value: child, key, parent: visit, depth: visit.depth + 1 };
        const message = textProblem(key);
        if (message) return { path: pathOf(at), message };
        stack.push(at);
      }
    }
  }
  return null;
}
