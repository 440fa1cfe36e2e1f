// The staff screens and the scopes that can use them: the header shows a screen only to a user holding one of
// its scopes (an empty list: every signed-in user). Pages still check on the server; this only hides links
// that would end in "Your role can't do this".
import type { Scope } from '@/lib/auth/scopes';

export type NavItem = {
  href: string;
  label: string;
  anyOf: readonly string[];
  /** Scopes the user must all hold as well (the revenue dashboard reads claims and money). */
  allOf?: readonly string[];
};

export const STAFF_NAV: readonly NavItem[] = [
  { href: '/dashboard', label: 'Dashboard', anyOf: ['claims:read'], allOf: ['claims:read', 'svcpay:read'] },
  { href: '/eligibility/roster', label: 'Roster', anyOf: ['eligibility:read'] },
  { href: '/eligibility/verify', label: 'Verify', anyOf: ['eligibility:read'] },
  { href: '/patients', label: 'Patients', anyOf: ['patients:read'] },
  { href: '/claims', label: 'Claims', anyOf: ['claims:read'] },
  { href: '/denials', label: 'Denials', anyOf: ['claims:read'] },
  { href: '/remittances', label: 'Remittances', anyOf: ['svcpay:read'] },
  { href: '/bills', label: 'Patient bills', anyOf: ['svcpay:read'] },
  { href: '/settlement', label: 'Settlement', anyOf: ['svcpay:read'] },
  { href: '/reconciliation', label: 'Reconciliation', anyOf: ['svcpay:read'] },
  { href: '/settings/integrations', label: 'Integrations', anyOf: ['integrations:read'] },
  { href: '/admin/users', label: 'Users', anyOf: ['users:admin'] },
  { href: '/admin/audit', label: 'Audit log', anyOf: ['users:admin'] },
  { href: '/settings/clinic', label: 'Clinic settings', anyOf: ['users:admin'] },
  { href: '/settings/background', label: 'Background work', anyOf: ['users:admin'] },
  { href: '/settings/webhooks', label: 'Webhooks', anyOf: ['webhooks:admin'] },
  { href: '/settings/security', label: 'Security', anyOf: [] },
  { href: '/docs', label: 'API docs', anyOf: [] },
];

export function navFor(scopes: readonly Scope[] | readonly string[]): NavItem[] {
  const held = new Set<string>(scopes);
  return STAFF_NAV.filter(
    (item) =>
      (item.anyOf.length === 0 || item.anyOf.some((s) => held.has(s))) && (item.allOf ?? []).every((s) => held.has(s)),
  );
}
