import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './bulk-retry-after';

const NOW = new Date('2026-11-23T12:00:00.000Z');

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
  });

  it('reads an HTTP date as the time left until it, never negative', () => {
    expect(parseRetryAfter('Mon, 23 Nov 2026 12:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Monday, 23-Nov-26 12:01:00 GMT', NOW)).toBe(60_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 11:00:00 GMT', NOW)).toBe(0);
  });

  it('answers null for an absent or unreadable header', () => {
    for (const value of [null, undefined, '', '-5', '1.5', 'soon', '2026-11-23T12:00:30Z']) {
      expect(parseRetryAfter(value, NOW)).toBeNull();
    }
  });
});
