// Whether a request path holds a percent-encoding that does not decode (`%ff`, `%`, `%E0%A4`): Next cannot decode
// such a path into route params and answers a plain-text 500, so middleware refuses it first as 400 (DECISIONS
// "Security findings of 2026-11-28"). It does not judge what a well-formed segment says: the route's params schema
// does that (and parse-input refuses a decoded NUL or lone surrogate).

/** True when some segment of the raw (still encoded) path is not valid percent-encoded UTF-8. */
export function isMalformedPath(rawPath: string): boolean {
  if (!rawPath.includes('%')) return false;
  for (const segment of rawPath.split('/')) {
    try {
      decodeURIComponent(segment);
    } catch {
      return true;
    }
  }
  return false;
}
