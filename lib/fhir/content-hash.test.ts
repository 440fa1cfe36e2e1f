import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash } from './content-hash';
import type { FhirResource } from './types';

describe('contentHash', () => {
  it('is the sha256 of canonical JSON (keys sorted at every depth, array order kept)', () => {
    expect(canonicalJson({ b: [2, { d: 1, c: null }], a: 'x', skip: undefined })).toBe(
      '{"a":"x","b":[2,{"c":null,"d":1}]}',
    );
    // Known answer: sha256('{"id":"p1","resourceType":"Patient"}').
    expect(contentHash({ resourceType: 'Patient', id: 'p1' })).toBe(
      '73acf5c7b66c3a733e574ebda605e83dcce7a119d5d7004ba905ae8e088d327c',
    );
  });

  it('ignores key order and the volatile meta members, but not other meta or content', () => {
    const base = { resourceType: 'Patient', id: 'p1', name: [{ family: 'A' }] };
    const hash = contentHash(base);
    expect(contentHash({ name: [{ family: 'A' }], id: 'p1', resourceType: 'Patient' })).toBe(hash);
    const withMeta = (meta: Record<string, unknown>) => ({ ...base, meta }) as FhirResource;
    expect(
      contentHash(withMeta({ versionId: '9', lastUpdated: '2024-01-01T00:00:00Z', source: 'https://emr.example' })),
    ).toBe(hash);
    expect(contentHash(withMeta({ security: [{ code: 'R' }] }))).not.toBe(hash);
    expect(contentHash({ ...base, name: [{ family: 'B' }] })).not.toBe(hash);
  });
});
