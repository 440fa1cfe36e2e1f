// Browser-facing security headers (DECISIONS "Trust boundaries"): the Content-Security-Policy of staff pages and
// the headers every response carries. Pure: middleware.ts mints the nonce and sets them, and the route wrapper sets
// the base headers again on every API response (some routes skip the middleware).

/**
 * The page policy. Scripts: only those carrying this request's nonce (Next stamps it on its own scripts when
 * it finds the policy on the request) and what they load ('strict-dynamic'), so an injected <script> or inline
 * handler never runs. Styles allow 'unsafe-inline': React renders `style` attributes into the HTML, which no nonce
 * can cover, and a style cannot run code. No framing by anyone (clickjacking), no <base> or plugin tricks, forms
 * post only here. `dev` adds 'unsafe-eval', which only `next dev`'s refresh runtime needs.
 */
export function buildContentSecurityPolicy(nonce: string, options: { https: boolean; dev: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** On every response the middleware answers or passes on and every response of the route wrapper. */
export function baseSecurityHeaders(options: { https: boolean }): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    // The CSP's frame-ancestors, for browsers that predate it.
    'x-frame-options': 'DENY',
    // Only over https: a browser ignores HSTS on http, and a plain-http demo must stay reachable.
    ...(options.https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}
