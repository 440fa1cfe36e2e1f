// Two things a route handler cannot do, done where Node hands each request to Next: the `http.server.request.start`
// diagnostics channel publishes the request before any of Next's code sees it, in the server's own process.
// - The socket's peer address, which Next 16 never gives a handler (its `??=` writes it into X-Forwarded-For only
//   when the client sent none), is recorded as PEER_ADDRESS_HEADER, replacing any value the client sent:
//   lib/auth/client-address.ts reads the throttle's address from it and TRUSTED_PROXY_HOPS.
// - A 405 Next answers itself (a method the route file does not export) leaves with the API's error body, like
//   every other error (DECISIONS "Security findings of 2026-11-28"); the wrapper never runs for it.
// Installed once per process by instrumentation.ts. It changes no other request or response.
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PEER_ADDRESS_HEADER } from '../auth/client-address';
import { AppError } from '../errors';
import { CORRELATION_HEADER, isWellFormedCorrelationId } from './correlation';
import { errorBody } from './responses';

type RequestStart = { request: IncomingMessage; response: ServerResponse };

const INSTALLED = Symbol.for('clinic-revenue-platform.server-hooks');

export function installServerHooks(): void {
  const global = globalThis as { [INSTALLED]?: true };
  if (global[INSTALLED]) return;
  global[INSTALLED] = true;
  subscribe('http.server.request.start', (message) => {
    const { request, response } = message as RequestStart;
    recordPeerAddress(request);
    if (request.url?.startsWith('/api')) typeBareMethodNotAllowed(response);
  });
}

function recordPeerAddress(request: IncomingMessage): void {
  const peer = request.socket.remoteAddress;
  if (peer) request.headers[PEER_ADDRESS_HEADER] = peer;
  else delete request.headers[PEER_ADDRESS_HEADER];
}

/**
 * A 405 whose head carries no Content-Type (Next's own, with no body) gets `{ code, message, correlationId }`. Both
 * ways out are covered: `writeHead` (Next's compression layer sends the head itself before ending) and a bare `end`.
 */
function typeBareMethodNotAllowed(response: ServerResponse): void {
  let body: string | undefined;
  const isBare405 = (res: ServerResponse) =>
    body === undefined && res.statusCode === 405 && !res.headersSent && !res.hasHeader('content-type');
  const writeHead = response.writeHead as (...args: unknown[]) => ServerResponse;
  response.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    // Only the bare form: a head written with its own header list is someone's deliberate answer.
    if (args.length === 1 && args[0] === 405) this.statusCode = 405;
    if (args.length <= 1 && isBare405(this)) body = setErrorHead(this);
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
  const end = response.end as (...args: unknown[]) => ServerResponse;
  response.end = function (this: ServerResponse, ...args: unknown[]) {
    const bare = args.length === 0 || typeof args[0] === 'function' || args[0] == null;
    if (bare && isBare405(this)) body = setErrorHead(this);
    if (bare && body !== undefined) return end.apply(this, [body, ...args.filter((a) => typeof a === 'function')]);
    return end.apply(this, args);
  } as ServerResponse['end'];
}

/** Sets the error head on a response whose head is not sent yet; returns the body to end it with. */
function setErrorHead(response: ServerResponse): string {
  const existing = response.getHeader(CORRELATION_HEADER);
  const correlationId =
    typeof existing === 'string' && isWellFormedCorrelationId(existing) ? existing : crypto.randomUUID();
  const error = new AppError('METHOD_NOT_ALLOWED', 'This API route does not accept that method');
  const body = JSON.stringify(errorBody(error, correlationId));
  response.setHeader('content-type', 'application/json; charset=utf-8');
  response.setHeader('cache-control', 'no-store');
  response.setHeader('content-length', Buffer.byteLength(body));
  response.setHeader(CORRELATION_HEADER, correlationId);
  return body;
}
