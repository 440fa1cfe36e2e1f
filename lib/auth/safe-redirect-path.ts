// Where to go after sign-in: a same-origin path only (DECISIONS: `/x`, never `//x` or `/\x`), so a crafted
// callbackUrl cannot turn the sign-in page into a phishing redirect. Pure: the login form (browser) and
// next-auth's redirect callback (server) both use it.

/**
 * The path (with query and fragment) of `target` when it stays on `origin`, else `/`. Resolved with the WHATWG URL
 * parser, as the browser will resolve it: `/\evil.example` is `//evil.example` there (a backslash is a slash in
 * http URLs), and tabs or newlines inside are dropped, so string prefix checks alone are not enough.
 */
export function safeRedirectPath(target: string | null | undefined, origin: string): string {
  if (!target) return '/';
  let url: URL;
  try {
    url = new URL(target, origin);
  } catch {
    return '/';
  }
  if (url.origin !== new URL(origin).origin) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  // `/.//evil` normalises to the path `//evil`, which a browser would read as another host.
  return path.startsWith('/') && !path.startsWith('//') ? path : '/';
}
