// NM1 segments as the claim-side builders write them: NM101 entity, NM102 1 (person) or 2 (organisation), the
// name cut to its element's length, NM108 the id qualifier and NM109 the id. NM106/NM107 (prefix, suffix) are
// never sent.
import type { ElementValue } from './build-interchange';
import { fitName, NAME_FIRST_MAX, NAME_LAST_OR_ORGANIZATION_MAX } from './fit-name';

const MIDDLE_NAME_MAX = 25; // NM105

export type Nm1Person = { lastName: string; firstName: string; middleName?: string };

/** An organisation: NM1*{entity}*2*{name}*****{qualifier}*{id}. */
export function organizationNm1(entity: string, name: string, qualifier: string, id: string): ElementValue[] {
  return ['NM1', entity, '2', fitName(name, NAME_LAST_OR_ORGANIZATION_MAX), '', '', '', '', qualifier, id];
}

/** A person: NM1*{entity}*1*{last}*{first}*{middle}***{qualifier}*{id}; no id when `qualifier` is ''. */
export function personNm1(entity: string, name: Nm1Person, qualifier = '', id = ''): ElementValue[] {
  return [
    'NM1',
    entity,
    '1',
    fitName(name.lastName, NAME_LAST_OR_ORGANIZATION_MAX),
    fitName(name.firstName, NAME_FIRST_MAX),
    fitName(name.middleName ?? '', MIDDLE_NAME_MAX),
    '',
    '',
    qualifier,
    id,
  ];
}
