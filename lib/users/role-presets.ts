// Role presets for the invite and edit forms: the scope sets of the demo tenant's roles (DECISIONS "Demo tenant"),
// which fill the checkboxes; the person can still tick or untick any box. A preset grants nothing by itself: the
// server's rule (only scopes the admin holds) applies to whatever is sent.
import { SCOPES, type Scope } from '../auth/scopes';

export type RolePreset = { id: 'front-desk' | 'billing' | 'admin'; label: string; scopes: readonly Scope[] };

export const ROLE_PRESETS: readonly RolePreset[] = [
  {
    id: 'front-desk',
    label: 'Front desk',
    scopes: ['eligibility:read', 'patients:read', 'appointments:read', 'claims:read'],
  },
  { id: 'billing', label: 'Billing', scopes: ['claims:read', 'claims:write', 'svcpay:read', 'svcpay:write'] },
  { id: 'admin', label: 'Admin', scopes: SCOPES },
];
