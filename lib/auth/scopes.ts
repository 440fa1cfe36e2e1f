// The scopes SPEC.md enforces per route (noun:verb). A session carries the user's scopes; routes name one.
export const SCOPES = [
  'svcpay:read',
  'svcpay:write',
  'claims:read',
  'claims:write',
  'eligibility:read',
  'integrations:read',
  'patients:read',
  'appointments:read',
  // Managing the clinic's users and reading its audit log (DECISIONS "Staff app").
  'users:admin',
  // Registering the clinic's outbound webhook endpoints and re-sending deliveries (DECISIONS "Events out").
  'webhooks:admin',
] as const;
export type Scope = (typeof SCOPES)[number];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);
