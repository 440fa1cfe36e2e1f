// The home screen's read: counts of the signed-in user's work, by what their scopes open.
import { endpoint } from '../endpoint';
import { HomeSummary } from './read-home';

export const readHomeEndpoint = endpoint({
  method: 'GET',
  path: '/api/home',
  tags: ['home'],
  summary:
    "Counts of the signed-in user's work, one section per part of the product their scopes open (a section they cannot open is absent): frontDesk (appointments:read + eligibility:read: today's appointments and those needing attention by reason, last night's pre-verification changes), claims (claims:read: claims by state, denials by next step), money (svcpay:read: 835s waiting for their deposit, unposted 835 claim payments, unmatched deposits, payouts waiting), admin (users:admin: locked users, failed background jobs), integrations (integrations:read: EMR connections needing attention)",
  auth: 'session',
  response: HomeSummary,
});

export const homeEndpoints = [readHomeEndpoint];
