// The first gate (the route wrapper checks again): sets the correlation id on every request and response,
// answers 401 UNAUTHENTICATED for /api calls without a valid session before any handler runs, and sends
// signed-out page views to /login. Pages get a per-request CSP nonce (set on the request too, which is how Next
// learns it and stamps its own scripts); every response it answers gets nosniff, no-referrer and, behind https,
// HSTS (lib/http/security-headers.ts). Runs on the nodejs runtime so it reads the same config as the handlers.
// Partner webhooks skip it: their credential is the signature, checked by the wrapper (which also sets their
// correlation id), and skipping the middleware is ~20 % more ingest throughput (bench/webhook-ingest). Any other
// path under /api/webhooks/ still passes here. The staff 835 upload (/api/remittances) skips it too: Next holds a
// request's whole body in memory until its middleware has run, then the route copies it again, so a 50 MiB 835
// was held three times over (bench/era-post rssGrowthMb); the wrapper's session check answers the same 401. So does
// the roster (/api/eligibility/roster): copying its body of up to 500 appointments for the middleware and running it
// put 15-25 ms before a roster's first 270 (bench/roster: its first payer call 55-82 ms after the request, 37-43
// without). An /api path whose percent-encoding does not decode is 400 here:
// Next could not turn it into route params (lib/http/malformed-path.ts).
// In sandbox, a page opened at another loopback host than APP_URL's (127.0.0.1 for localhost) is sent to APP_URL's
// host before sign-in: cookies and the Origin check belong to that one origin, so a session begun at the other
// host would sign in and then fail every action as cross-origin.
// A worker instance (APP_ROLE=worker) answers only /api/health; anything else is refused here with 503, before
// sign-in or any page (the route wrapper refuses again, for the webhooks this file skips).
import { randomBytes } from 'node:crypto';
import { NextResponse, type NextRequest } from 'next/server';
import { getConfig, servesPath, WORKER_REFUSAL } from '@/lib/config';
import { CORRELATION_HEADER, readCorrelationId } from '@/lib/http/correlation';
import { decodeSessionToken, findSessionToken } from '@/lib/auth/session-token';
import { isMalformedPath } from '@/lib/http/malformed-path';
import { isCdsHooksPath, isPublicApiPath, isPublicPagePath } from '@/lib/http/public-paths';
import { baseSecurityHeaders, buildContentSecurityPolicy } from '@/lib/http/security-headers';

export const config = {
  runtime: 'nodejs',
  matcher: [
    '/((?!_next/static|_next/image|favicon.ico|api/webhooks/[a-z]+$|api/remittances$|api/eligibility/roster$).*)',
  ],
};

type Issue = { path: string; message: string };

function errorJson(status: number, code: string, message: string, correlationId: string, issues?: Issue[]) {
  return NextResponse.json(
    { code, message, correlationId, ...(issues && { issues }) },
    { status, headers: { [CORRELATION_HEADER]: correlationId, 'cache-control': 'no-store' } },
  );
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const isLoopbackHost = (host: string) => LOOPBACK.has(host.replace(/:\d+$/, ''));

function withHeaders(response: NextResponse, headers: Record<string, string>): NextResponse {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export async function middleware(request: NextRequest) {
  const correlationId = readCorrelationId(request.headers);
  const config = getConfig();
  const { appUrl, authSecret, mode } = config;
  const https = appUrl.startsWith('https://');
  const common = { ...baseSecurityHeaders({ https }), [CORRELATION_HEADER]: correlationId };
  const headers = new Headers(request.headers);
  headers.set(CORRELATION_HEADER, correlationId);
  const path = request.nextUrl.pathname;
  if (!servesPath(config, path))
    return withHeaders(errorJson(503, 'DEPENDENCY_UNAVAILABLE', WORKER_REFUSAL, correlationId), common);
  const isApi = path.startsWith('/api/') || path === '/api';
  // CDS Hooks answers JSON to EHRs: no page redirect, no page CSP (its public gate is isPublicPagePath's).
  const isCds = isCdsHooksPath(path);
  const isPublic = isApi ? isPublicApiPath(path) : isPublicPagePath(path);

  if (mode === 'sandbox' && !isApi && !isCds && (request.method === 'GET' || request.method === 'HEAD')) {
    const canonical = new URL(appUrl);
    const host = request.headers.get('host')?.toLowerCase();
    // Only between loopback names of this machine: behind a proxy the Host header is the proxy's business.
    if (host && host !== canonical.host && isLoopbackHost(host) && isLoopbackHost(canonical.host)) {
      const target = new URL(path + request.nextUrl.search, canonical.origin);
      return withHeaders(NextResponse.redirect(target, 307), common);
    }
  }

  if (!isPublic) {
    if (!authSecret) {
      if (isApi)
        return withHeaders(errorJson(503, 'DEPENDENCY_UNAVAILABLE', 'Sign-in is not available', correlationId), common);
    }
    const found = findSessionToken(request.headers, appUrl);
    const valid = !!(
      found &&
      authSecret &&
      (await decodeSessionToken(found.token, authSecret, new Date()).then(
        () => true,
        () => false,
      ))
    );
    if (!valid) {
      if (isApi) return withHeaders(errorJson(401, 'UNAUTHENTICATED', 'Sign in to continue', correlationId), common);
      const login = new URL('/login', request.url);
      if (path !== '/') login.searchParams.set('callbackUrl', path + request.nextUrl.search);
      return withHeaders(NextResponse.redirect(login), common);
    }
  }
  if ((isApi || isCds) && isMalformedPath(new URL(request.url).pathname)) {
    const issues = [{ path: 'params', message: 'A path segment is not valid percent-encoded UTF-8' }];
    return withHeaders(
      errorJson(400, 'VALIDATION_FAILED', 'The request path is not valid', correlationId, issues),
      common,
    );
  }
  if (isApi || isCds) return withHeaders(NextResponse.next({ request: { headers } }), common);
  // A page: a fresh nonce per view. NODE_ENV is fixed at build time; only `next dev` needs eval.
  const policy = buildContentSecurityPolicy(randomBytes(18).toString('base64'), {
    https,
    dev: process.env.NODE_ENV === 'development',
  });
  headers.set('content-security-policy', policy);
  return withHeaders(NextResponse.next({ request: { headers } }), { ...common, 'content-security-policy': policy });
}
