// The one route wrapper: every handler under app/api (except next-auth's catch-all) runs through it, as the same
// pipeline of named steps: correlation id → authenticate-request (session, webhook signature or cron bearer;
// Origin, scope, halt, step-up) → parse-input (params, query, read-body unless the endpoint defers it to the
// handler) → step-up by body → handler → render (endpoint `render`, else JSON through the response schema) →
// error-response.
import type { z } from 'zod';
import { getDeps, type Deps } from '../deps';
import type { Config } from '../config';
import type { Endpoint } from '../endpoint';
import type { Logger } from '../log';
import type { Principal } from '../auth/principal';
import { authenticateRequest, requireRecentAuth } from './authenticate-request';
import { CORRELATION_HEADER, readCorrelationId } from './correlation';
import { errorResponse } from './error-response';
import { parseInput } from './parse-input';
import { readJsonBody } from './read-body';
import { baseSecurityHeaders } from './security-headers';
import { json } from './responses';

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;
type Session<E extends Endpoint, T> = E['auth'] extends 'session' ? T : undefined;

/** Who acts, for the domain's tenancy and audit fields: the session's clinic, org and user, and this request. */
export type Actor = { clinicId: string; orgId: string; userId: string; correlationId: string; clinicTimeZone: string };

export type HandlerContext<E extends Endpoint> = {
  request: Request;
  params: Infer<E['params']>;
  query: Infer<E['query']>;
  /** The parsed body; undefined when the endpoint has `deferBody`. */
  body: Infer<E['body']>;
  /** Reads and parses the body, as the route does without `deferBody` (once: a request's body is read once). */
  readBody: () => Promise<Infer<E['body']>>;
  /** Present on session endpoints; tenancy always comes from here. */
  actor: Session<E, Actor>;
  /** The full principal (scopes, via, email), for the few handlers that need more than `actor`. */
  principal: Session<E, Principal>;
  /** The exact bytes of a signed webhook body. */
  rawBody: Uint8Array;
  correlationId: string;
  log: Logger;
  deps: Deps;
};

/** What a renderer may read besides the handler's result. */
export type RenderContext = { request: Request; correlationId: string; config: Config };

/**
 * The contract plus how the edge sends it. `render` turns the handler's plain result into the response, for
 * answers that are not 200/`successStatus` JSON (cookies, redirects, FHIR content types, ETags): the domain
 * returns values, the edge renders them. The result reaches the renderer as the handler returned it, so
 * `response` then documents the body and the renderer applies it if the body carries PHI or money. A handler
 * that returns a Response itself bypasses the renderer. Route files set it: `route({ ...readX, render }, ...)`.
 */
export type RoutedEndpoint = Endpoint & {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each renderer knows its own handler's result type
  render?: (result: any, context: RenderContext) => Response | Promise<Response>;
};

type NextContext = { params: Promise<Record<string, string | string[]>> };

export type RouteHandler = ((request: Request, context: NextContext) => Promise<Response>) & { endpoint: Endpoint };

export function route<E extends RoutedEndpoint>(
  endpoint: E,
  handler: (ctx: HandlerContext<E>) => unknown,
): RouteHandler {
  const run = async (request: Request, context: NextContext) => {
    const correlationId = readCorrelationId(request.headers);
    const deps = await getDeps();
    const log = deps.log.child({ correlationId, route: `${endpoint.method} ${endpoint.path}` });
    let response: Response;
    try {
      response = await handle(endpoint, handler, request, context, { correlationId, log, deps });
    } catch (error) {
      response = errorResponse(error, correlationId, log, endpoint.errorFormat);
    }
    response.headers.set(CORRELATION_HEADER, correlationId);
    // The middleware sets these too, but not on the routes its matcher skips (middleware.ts names them and why).
    const https = deps.config.appUrl.startsWith('https://');
    for (const [name, value] of Object.entries({ ...baseSecurityHeaders({ https }), ...endpoint.headers })) {
      response.headers.set(name, value);
    }
    return response;
  };
  return Object.assign(run, { endpoint });
}

async function handle<E extends RoutedEndpoint>(
  endpoint: E,
  handler: (ctx: HandlerContext<E>) => unknown,
  request: Request,
  context: NextContext,
  { correlationId, log, deps }: { correlationId: string; log: Logger; deps: Deps },
): Promise<Response> {
  const { principal, rawBody } = await authenticateRequest(endpoint, request, deps);
  const params = endpoint.params ? parseInput(endpoint.params, await context.params, 'params') : undefined;
  const query = endpoint.query ? parseInput(endpoint.query, queryObject(request), 'query') : undefined;
  const readBody = async () =>
    endpoint.body ? parseInput(endpoint.body, await readJsonBody(request, rawBody), 'body') : undefined;
  const body = endpoint.deferBody ? undefined : await readBody();
  if (endpoint.stepUpWhen?.(body as never)) await requireRecentAuth(endpoint, request, principal, deps);

  const actor = principal && {
    clinicId: principal.clinicId,
    orgId: principal.orgId,
    userId: principal.userId,
    correlationId,
    clinicTimeZone: principal.clinicTimeZone,
  };
  const result = await handler({
    request,
    params,
    query,
    body,
    readBody,
    actor,
    principal,
    rawBody: rawBody ?? new Uint8Array(),
    correlationId,
    log,
    deps,
  } as HandlerContext<E>);
  if (result instanceof Response) return result;
  if (endpoint.render) return endpoint.render(result, { request, correlationId, config: deps.config });
  // Responses that carry PHI or money go through their schema, so no field leaks by accident.
  const payload = endpoint.response ? endpoint.response.parse(result) : result;
  return json(payload, { status: endpoint.successStatus ?? 200 });
}

function queryObject(request: Request): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URL(request.url).searchParams) {
    const existing = out[key];
    out[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}
