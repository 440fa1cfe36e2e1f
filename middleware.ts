// The first gate (the route wrapper checks again): sets the correlation id on every request and response,
// answers 401 UNAUTHENTICATED for /api calls without a valid session before any handler runs, and sends
// signed-out page views to /login. Runs on the nodejs runtime so it reads the same config as the handlers.
// Partner webhooks skip it: their credential is the signature, checked by the wrapper (which also sets their
// correlation id), and skipping the middleware is ~20 % more ingest throughput (bench/webhook-ingest).
import { NextResponse, type NextRequest } from 'next/server';
import { getConfig } from '@/lib/config';
import { CORRELATION_HEADER, readCorrelationId } from '@/lib/http/correlation';
import { decodeSessionToken, findSessionToken } from '@/lib/auth/session-token';
import { isPublicApiPath, isPublicPagePath } from '@/lib/http/public-paths';

export const config = {
  runtime: 'nodejs',
  matcher: ['/((?!_next/static|_next/image|favicon.ico|api/webhooks/).*)'],
};

function errorJson(status: number, code: string, message: string, correlationId: string) {
  return NextResponse.json({ code, message, correlationId }, { status, headers: { [CORRELATION_HEADER]: correlationId, 'cache-control': 'no-store' } });
}

export async function middleware(request: NextRequest) {
  const correlationId = readCorrelationId(request.headers);
  const headers = new Headers(request.headers);
  headers.set(CORRELATION_HEADER, correlationId);
  const path = request.nextUrl.pathname;
  const isApi = path.startsWith('/api/') || path === '/api';
  const isPublic = isApi ? isPublicApiPath(path) : isPublicPagePath(path);

  if (!isPublic) {
    const { appUrl, authSecret } = getConfig();
    if (!authSecret) {
      if (isApi) return errorJson(503, 'DEPENDENCY_UNAVAILABLE', 'Sign-in is not available', correlationId);
    }
    const found = findSessionToken(request.headers, appUrl);
    const valid = !!(found && authSecret && (await decodeSessionToken(found.token, authSecret, new Date()).then(() => true, () => false)));
    if (!valid) {
      if (isApi) return errorJson(401, 'UNAUTHENTICATED', 'Sign in to continue', correlationId);
      const login = new URL('/login', request.url);
      if (path !== '/') login.searchParams.set('callbackUrl', path + request.nextUrl.search);
      const response = NextResponse.redirect(login);
      response.headers.set(CORRELATION_HEADER, correlationId);
      return response;
    }
  }
  const response = NextResponse.next({ request: { headers } });
  response.headers.set(CORRELATION_HEADER, correlationId);
  return response;
}
