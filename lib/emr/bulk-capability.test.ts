import { describe, expect, it } from 'vitest';
import { offersExport, type CapabilityStatement } from './bulk-capability';

const statement = (rest: NonNullable<CapabilityStatement['rest']>[number], extra: Partial<CapabilityStatement> = {}) =>
  ({ resourceType: 'CapabilityStatement', rest: [rest], ...extra }) as CapabilityStatement;
const GROUP_EXPORT = 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/group-export';
const SYSTEM_EXPORT = 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export';

describe('offersExport', () => {
  it('finds Group export on the Group resource, by name or by definition', () => {
    const byName = statement({ mode: 'server', resource: [{ type: 'Group', operation: [{ name: 'export' }] }] });
    const byDefinition = statement({
      resource: [{ type: 'Group', operation: [{ name: 'x', definition: GROUP_EXPORT }] }],
    });
    const atSystemLevel = statement({ operation: [{ name: 'group-export', definition: GROUP_EXPORT }] });
    for (const s of [byName, byDefinition, atSystemLevel]) expect(offersExport(s, 'group')).toBe(true);
    expect(offersExport(byName, 'system')).toBe(false);
  });

  it('finds system export at the rest level only', () => {
    const system = statement({ operation: [{ name: 'export', definition: SYSTEM_EXPORT }] });
    expect(offersExport(system, 'system')).toBe(true);
    expect(offersExport(system, 'group')).toBe(false);
    expect(
      offersExport(statement({ resource: [{ type: 'Patient', operation: [{ name: 'export' }] }] }), 'system'),
    ).toBe(false);
  });

  it("counts the IG's CapabilityStatement in instantiates for either level", () => {
    const s = statement({}, { instantiates: ['http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data|2.0.0'] });
    expect(offersExport(s, 'group')).toBe(true);
    expect(offersExport(s, 'system')).toBe(true);
  });

  it('offers nothing without any of them, or only in client mode', () => {
    expect(offersExport({ resourceType: 'CapabilityStatement' } as CapabilityStatement, 'group')).toBe(false);
    expect(offersExport(statement({ mode: 'client', operation: [{ name: 'export' }] }), 'system')).toBe(false);
  });
});
