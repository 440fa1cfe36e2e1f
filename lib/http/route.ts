// The one route wrapper: every handler under app/api (except next-auth's catch-all) runs through it.
// Pipeline: correlation id → authenticate (session, webhook signature or cron bearer) → CSRF origin check →
// scope → halt → step-up → parse params/query/body (NUL refused, 1 MiB cap) → handler → response schema →
// error mapping (our JSON body, or OperationOutcome for FHIR endpoints).
import { timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import { assertNotHalted, requireAuthSecret, requireCronSecret, requireStepUpSecret, requireWebhookSecrets } from '../config';
import { getDeps, type Deps } from '../deps';
import { getLogger, type Logger } from '../log';
import { authenticate } from '../auth/authenticate';
import type { Principal } from '../auth/principal';
import { requireStepUp } from '../auth/step-up';
import { verifySignature } from '../webhooks/verify-signature';
import { asOperationOutcomeResponse } from '../fhir/operation-outcome';
import { CORRELATION_HEADER, readCorrelationId } from './correlation';
import type { Endpoint } from './endpoint';
import { AppError, isAppError, type ErrorIssue } from '../errors';
import { appErrorResponse, json } from './responses';

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

export type HandlerContext<E extends Endpoint> = {
  request: Request;
  params: Infer<E['params']>;
  query: Infer<E['query']>;
  body: Infer<E['body']>;
  /** Present on session endpoints; tenancy always comes from here. */
  principal: E['auth'] extends 'session' ? Principal : undefined;
  /** The exact bytes of a signed webhook body. */
  rawBody: Uint8Array;
  correlationId: string;
  log: Logger;
  deps: Deps;
};

export type RouteHandler = ((request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>) & {
  endpoint: Endpoint;
};

export function route<E extends Endpoint>(endpoint: E, handler: (ctx: HandlerContext<E>) => unknown): RouteHandler {
  const run = async (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => {
    const correlationId = readCorrelationId(request.headers);
    const log = getLogger().child({ correlationId, route: `${endpoint.method} ${endpoint.path}` });
    let response: Response;
    try {
      response = await handle(endpoint, handler, request, context, correlationId, log);
    } catch (error) {
      response = errorResponse(error, correlationId, log);
      if (endpoint.errorFormat === 'operation-outcome') response = await asOperationOutcomeResponse(response);
    }
    response.headers.set(CORRELATION_HEADER, correlationId);
    for (const [name, value] of Object.entries(endpoint.headers ?? {})) response.headers.set(name, value);
    return response;
  };
  return Object.assign(run, { endpoint });
}

async function handle<E extends Endpoint>(
  endpoint: E,
  handler: (ctx: HandlerContext<E>) => unknown,
  request: Request,
  context: { params: Promise<Record<string, string | string[]>> },
  correlationId: string,
  log: Logger,
): Promise<Response> {
  const deps = await getDeps();
  let principal: Principal | undefined;
  let rawBody = new Uint8Array();

  if (endpoint.auth === 'session') {
    principal = await authenticate(deps, request.headers, { secret: requireAuthSecret(), appUrl: deps.config.appUrl });
    if (principal.via === 'cookie') assertSameOrigin(request, deps.config.appUrl);
    if (endpoint.scope && !principal.scopes.includes(endpoint.scope)) {
      throw new AppError('SCOPE_MISSING', `This action needs the ${endpoint.scope} scope`);
    }
  } else if (endpoint.auth === 'cron') {
    assertCronBearer(request.headers, requireCronSecret());
  } else if (typeof endpoint.auth === 'object') {
    // Verify the exact raw bytes before anything parses them.
    const secrets = requireWebhookSecrets(endpoint.auth.signature);
    rawBody = await readBodyBytes(request);
    if (!verifySignature(rawBody, request.headers.get('x-svc-signature'), secrets)) {
      throw new AppError('SIGNATURE_INVALID', 'The signature does not match the request body');
    }
  }
  // A global halt refuses money routes before anything else is asked of the caller.
  if (endpoint.money) assertNotHalted();
  if (endpoint.stepUp) {
    if (!principal) throw new Error(`${endpoint.method} ${endpoint.path}: stepUp needs auth 'session'`);
    await requireStepUp(request.headers, principal, requireStepUpSecret(), deps.clock());
  }

  const params = endpoint.params ? parseInput(endpoint.params, await context.params, 'params') : undefined;
  const query = endpoint.query ? parseInput(endpoint.query, queryObject(request), 'query') : undefined;
  const body = endpoint.body ? parseInput(endpoint.body, await readJson(request, rawBody, typeof endpoint.auth === 'object'), 'body') : undefined;

  const result = await handler({
    request, params, query, body, principal, rawBody, correlationId, log, deps,
  } as HandlerContext<E>);
  if (result instanceof Response) return result;
  if (endpoint.render) return endpoint.render(result, { request, correlationId, config: deps.config });
  // Responses that carry PHI or money go through their schema, so no field leaks by accident.
  const payload = endpoint.response ? endpoint.response.parse(result) : result;
  return json(payload, { status: endpoint.successStatus ?? 200 });
}

/** Cookie-authenticated unsafe requests must come from our own origin (DECISIONS: CSRF). */
function assertSameOrigin(request: Request, appUrl: string) {
  if (['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return;
  const source = request.headers.get('origin') ?? request.headers.get('referer');
  if (!source) return; // neither header: a non-browser caller; SameSite=Lax keeps cross-site forms cookieless
  let origin: string;
  try {
    origin = new URL(source).origin;
  } catch {
    origin = 'null';
  }
  if (origin !== new URL(appUrl).origin) throw new AppError('FORBIDDEN', 'Cross-origin requests are not allowed');
}

function assertCronBearer(headers: Headers, secret: string) {
  const [scheme, token] = (headers.get('authorization') ?? '').split(' ');
  const given = Buffer.from(scheme === 'Bearer' && token ? token : '');
  const expected = Buffer.from(secret);
  // Constant time: the bearer is attacker-controlled. Compare equal lengths only, then the length itself.
  const same = given.length === expected.length && timingSafeEqual(given, expected);
  if (!same) throw new AppError('UNAUTHENTICATED', 'A valid job token is required');
}

function queryObject(request: Request): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URL(request.url).searchParams) {
    const existing = out[key];
    out[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

/** No endpoint takes more; a larger body is refused before it is buffered whole (or its signature computed). */
export const MAX_BODY_BYTES = 1024 * 1024;

const bodyTooLarge = () => new AppError('VALIDATION_FAILED', 'The request body is too large', {
  issues: [{ path: 'body', message: `At most ${MAX_BODY_BYTES} bytes` }],
});

async function readBodyBytes(request: Request): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(request.headers.get('content-length')) > MAX_BODY_BYTES) throw bodyTooLarge();
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    // Counted while streaming: Content-Length may be absent (chunked) or lie.
    if (total > MAX_BODY_BYTES) {
      await reader.cancel();
      throw bodyTooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

async function readJson(request: Request, rawBody: Uint8Array, alreadyRead: boolean): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/([a-z0-9.+-]+\+)?json\b/i.test(type)) {
    throw new AppError('VALIDATION_FAILED', 'The request body must be JSON (Content-Type: application/json)', {
      issues: [{ path: 'body', message: 'Expected Content-Type application/json' }],
    });
  }
  const bytes = alreadyRead ? rawBody : await readBodyBytes(request);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (cause) {
    throw new AppError('VALIDATION_FAILED', 'The request body is not valid UTF-8', { cause, issues: [{ path: 'body', message: 'Invalid UTF-8' }] });
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new AppError('VALIDATION_FAILED', 'The request body is not valid JSON', { cause, issues: [{ path: 'body', message: 'Invalid JSON' }] });
  }
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

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: 'params' | 'query' | 'body'): z.infer<S> {
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

const DATABASE_DOWN = /ECONNREFUSED|ECONNRESET|Connection terminated|terminating connection|Can't reach database|DatabaseNotReachable|57P01|57P03|the database system is (starting up|shutting down)/i;

export function errorResponse(error: unknown, correlationId: string, log: Logger): Response {
  if (isAppError(error)) {
    const level = error.status >= 500 ? 'error' : 'info';
    log[level]({ code: error.code, status: error.status, cause: describeCause(error.cause) }, error.message);
    return appErrorResponse(error, correlationId);
  }
  if (DATABASE_DOWN.test(JSON.stringify(describeCause(error)) ?? '')) {
    log.error({ err: describeCause(error) }, 'database unavailable');
    return appErrorResponse(new AppError('DEPENDENCY_UNAVAILABLE', 'A dependency is unavailable; try again shortly'), correlationId);
  }
  log.error({ err: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) }, 'unhandled error');
  return appErrorResponse(new AppError('INTERNAL_ERROR', 'Something went wrong; quote the correlation id to support'), correlationId);
}

// The log is JSON: a cause is logged as a JSON value (an Error as { name, message, code?, cause? }, a plain
// detail object such as the egress client's as itself), never flattened to "[object Object]".
function describeCause(cause: unknown, depth = 0): unknown {
  if (cause === undefined || cause === null) return undefined;
  if (depth > 4) return '[deeper causes omitted]';
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    const inner = describeCause((cause as { cause?: unknown }).cause, depth + 1);
    return { name: cause.name, message: cause.message, ...(typeof code === 'string' && { code }), ...(inner !== undefined && { cause: inner }) };
  }
  if (typeof cause === 'object') {
    try {
      return JSON.parse(JSON.stringify(cause)) as unknown;
    } catch {
      return String(cause);
    }
  }
  return String(cause);
}

