// A path Next could not decode into params is recognised before routing; well-formed encodings pass.
import { describe, expect, it } from 'vitest';
import { isMalformedPath } from './malformed-path';

describe('isMalformedPath', () => {
  it('finds a segment that is not valid percent-encoded UTF-8', () => {
    for (const path of ['/api/claims/%ff', '/api/claims/%', '/api/claims/%E0%A4', '/api/x/%ED%A0%80/y', '/api/a%zz'])
      expect(isMalformedPath(path), path).toBe(true);
  });

  it('passes plain and well-formed encoded segments, NUL included (the params schema judges those)', () => {
    for (const path of ['/api/claims/clm_1', '/api/claims/%20x', '/api/claims/%C3%A9', '/api/claims/%00', '/api/'])
      expect(isMalformedPath(path), path).toBe(false);
  });
});
