// What may be reached without a staff session. Everything else under /api is 401 before any handler runs.
// Webhooks authenticate by signature, jobs by the cron bearer, next-auth's endpoints are its own.
const PUBLIC_API = [
  /^\/api\/auth\/(csrf|providers|session|signin|signout|callback|error)(\/.*)?$/,
  /^\/api\/webhooks\/[^/]+$/,
  /^\/api\/jobs\/[^/]+$/,
  /^\/api\/health$/,
  /^\/api\/openapi\.json$/,
  /^\/api\/changelog$/,
  /^\/api\/fhir\/metadata$/,
  // The sandbox EHR: its own bearer tokens (sandbox only); its authorize decision and CDS call tokens need our session.
  /^\/api\/sandbox-ehr\/(?!authorize$|cds-token$).+$/,
  // The invitee has no session yet: the single-use token in the body is the credential.
  /^\/api\/users\/invitations\/accept$/,
];

export const isPublicApiPath = (path: string) => PUBLIC_API.some((re) => re.test(path));

/** CDS Hooks (outside /api): the EHR's JWT is the credential, checked by the service itself. */
export const isCdsHooksPath = (path: string) => path === '/cds-services' || path.startsWith('/cds-services/');

export const isPublicPagePath = (path: string) =>
  isCdsHooksPath(path) ||
  path === '/login' ||
  path === '/login/accept' ||
  path.startsWith('/.well-known/') ||
  path.startsWith('/_next/');
