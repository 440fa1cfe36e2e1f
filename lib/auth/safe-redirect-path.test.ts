// The after-sign-in target: every way of naming another site lands on `/`, same-origin paths pass unchanged.
import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from './safe-redirect-path';

const origin = 'https://app.example';

describe('safeRedirectPath', () => {
  it.each([
    ['/\\evil.example', 'a backslash after the slash (the browser reads //evil.example)'],
    ['/%5Cevil.example', 'never decoded here, but kept as a path if it arrives encoded'],
    ['//evil.example', 'a protocol-relative URL'],
    ['https://evil.example/login', 'an absolute URL on another origin'],
    ['http://app.example/', 'the same host on another scheme'],
    ['/\t/evil.example', 'a tab the URL parser drops'],
    ['/.//evil.example', 'a path that normalises to //evil.example'],
    ['javascript:alert(1)', 'a script URL'],
    ['', 'nothing'],
  ])('does not leave the origin for %j (%s)', (target) => {
    const path = safeRedirectPath(target, origin);
    expect(new URL(path, origin).origin).toBe(origin);
    expect(path).toMatch(/^\/(?![/\\])/);
  });

  it('sends a backslash or protocol-relative target to the home page', () => {
    expect(safeRedirectPath('/\\evil.example', origin)).toBe('/');
    expect(safeRedirectPath('//evil.example', origin)).toBe('/');
    expect(safeRedirectPath('https://evil.example', origin)).toBe('/');
  });

  it('keeps a same-origin path with its query and fragment, and a same-origin absolute URL as its path', () => {
    expect(safeRedirectPath('/eligibility/roster?date=2026-01-01#top', origin)).toBe(
      '/eligibility/roster?date=2026-01-01#top',
    );
    expect(safeRedirectPath('https://app.example/settings/security', origin)).toBe('/settings/security');
    expect(safeRedirectPath(null, origin)).toBe('/');
  });
});
