import { describe, expect, it } from 'vitest';
import { createPkcePair, deriveCodeChallenge, randomState } from './pkce';

describe('PKCE', () => {
  it('matches the RFC 7636 Appendix B known-answer vector for S256', () => {
    expect(deriveCodeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('creates a 43-128 character verifier of unreserved characters whose challenge is its S256 transform', () => {
    const { codeVerifier, codeChallenge } = createPkcePair();
    expect(codeVerifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/);
    expect(codeChallenge).toBe(deriveCodeChallenge(codeVerifier));
    expect(codeChallenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('never repeats a verifier or a state', () => {
    const verifiers = new Set(Array.from({ length: 200 }, () => createPkcePair().codeVerifier));
    const states = new Set(Array.from({ length: 200 }, () => randomState()));
    expect(verifiers.size).toBe(200);
    expect(states.size).toBe(200);
  });

  it('makes states of at least 128 random bits, base64url', () => {
    const state = randomState();
    expect(state).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(state, 'base64url').length).toBeGreaterThanOrEqual(16);
  });
});
