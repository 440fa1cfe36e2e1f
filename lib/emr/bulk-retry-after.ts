// HTTP Retry-After (RFC 9110 section 10.2.3): delay-seconds or an HTTP-date. The Bulk Data status endpoint sends
// it with 202 (still exporting) and 429 (polled too often). Returns milliseconds from `now`, or null when the
// header is absent or unreadable (the caller then backs off on its own).

export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // IMF-fixdate, the obsolete RFC 850 and asctime forms: Date.parse reads all three; anything else is refused.
  if (!/^[A-Za-z]{3}/.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}
