// Served ids per source: deterministic, valid FHIR ids within the external store's budget, distinct per source,
// and every reference into the same source rewritten to match while references elsewhere stay as they were.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_SERVED_ID_LENGTH, servedId, toServedResource } from './served-resource';

const A = 'https://ehr-a.example/fhir';
const B = 'https://ehr-b.example/R4';
const keyOf = (source: string) => createHash('sha256').update(source).digest('hex').slice(0, 12);
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;

describe('servedId', () => {
  it('prefixes the id with a 12-hex key of the source, the same every time', () => {
    expect(servedId(A, '123')).toBe(`${keyOf(A)}-123`);
    expect(servedId(A, '123')).toBe(servedId(A, '123'));
    expect(servedId(A, '123')).not.toBe(servedId(B, '123'));
  });

  it('keeps the id of a resource without a source', () => {
    expect(servedId('', 'pat-1')).toBe('pat-1');
  });

  it('hashes an id too long for the prefix into a valid id of at most 51 characters, never equal to a short form', () => {
    const longest = 'x'.repeat(MAX_SERVED_ID_LENGTH - 13);
    expect(servedId(A, longest)).toBe(`${keyOf(A)}-${longest}`);
    const tooLong = 'y'.repeat(64);
    const hashed = servedId(A, tooLong);
    expect(hashed).toMatch(new RegExp(`^${keyOf(A)}\\.[0-9a-f]{38}$`));
    expect(hashed).toHaveLength(MAX_SERVED_ID_LENGTH);
    expect(hashed).toMatch(FHIR_ID);
    expect(servedId(A, `${tooLong.slice(0, 63)}z`)).not.toBe(hashed);
  });
});

describe('toServedResource', () => {
  it('rewrites relative and same-source absolute references, keeps other servers, contained and urn references', () => {
    const { source, resource } = toServedResource(
      {
        resourceType: 'Observation',
        id: 'o1',
        meta: { versionId: '3', source: 'https://forged.example/x' },
        subject: { reference: 'Patient/123' },
        encounter: { reference: `${A}/Encounter/e1/_history/2` },
        performer: [
          { reference: 'https://elsewhere.example/Practitioner/p' },
          { reference: '#contained-1' },
          { reference: 'urn:uuid:0b0c' },
        ],
        hasMember: [{ reference: `${A}/Observation/o2` }],
      },
      `${A}/`,
    );
    expect(source).toBe(A);
    expect(resource).toEqual({
      resourceType: 'Observation',
      id: `${keyOf(A)}-o1`,
      // the original identity, in place of whatever meta.source the sender claimed
      meta: { versionId: '3', source: `${A}/Observation/o1/_history/3` },
      subject: { reference: `Patient/${keyOf(A)}-123` },
      encounter: { reference: `Encounter/${keyOf(A)}-e1` },
      performer: [
        { reference: 'https://elsewhere.example/Practitioner/p' },
        { reference: '#contained-1' },
        { reference: 'urn:uuid:0b0c' },
      ],
      hasMember: [{ reference: `Observation/${keyOf(A)}-o2` }],
    });
  });

  it('gives two sources that both send Patient/123 two ids, each Observation pointing at its own', () => {
    const fromA = toServedResource(
      { resourceType: 'Observation', id: 'o1', subject: { reference: 'Patient/123' } },
      A,
    ).resource;
    const fromB = toServedResource(
      { resourceType: 'Observation', id: 'o1', subject: { reference: 'Patient/123' } },
      B,
    ).resource;
    expect(fromA.id).not.toBe(fromB.id);
    expect(fromA.subject).toEqual({ reference: `Patient/${servedId(A, '123')}` });
    expect(fromB.subject).toEqual({ reference: `Patient/${servedId(B, '123')}` });
  });

  it('leaves a resource without a source as it came, apart from a claimed meta.source', () => {
    const resource = {
      resourceType: 'Observation',
      id: 'o1',
      meta: { source: 'https://forged.example' },
      subject: { reference: 'Patient/123' },
    };
    expect(toServedResource(resource, undefined)).toEqual({
      source: '',
      resource: { resourceType: 'Observation', id: 'o1', meta: {}, subject: { reference: 'Patient/123' } },
    });
  });
});
