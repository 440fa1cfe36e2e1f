// Set-Cookie values for our own auth cookies (step-up claim, WebAuthn ceremony pointers): always httpOnly and
// SameSite=Strict, Secure everywhere except a plain-http loopback APP_URL (the local demo and the tests).
// Does not read cookies (lib/auth/session-token.ts readCookie does) and never touches next-auth's session cookie.

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Secure unless the app is served over plain http on a loopback host, where browsers would drop it. */
function isSecureCookieOrigin(appUrl: string): boolean {
  const url = new URL(appUrl);
  return !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

export function buildCookie(
  name: string,
  value: string,
  options: { maxAgeSeconds: number; path: string; appUrl: string },
): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${options.path}`,
    `Max-Age=${options.maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (isSecureCookieOrigin(options.appUrl)) parts.push('Secure');
  return parts.join('; ');
}

/** Expires the cookie at once (same name and path as it was set with). */
export function clearCookie(name: string, options: { path: string; appUrl: string }): string {
  return `${buildCookie(name, '', { ...options, maxAgeSeconds: 0 })}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

/** Adds Set-Cookie lines to a response (appended: each cookie stays its own header line). */
export function withCookies(response: Response, cookies: string[]): Response {
  for (const cookie of cookies) response.headers.append('set-cookie', cookie);
  return response;
}
