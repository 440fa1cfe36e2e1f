// Claims: submit (inline-create or submit a draft) and the clinic's list.
import { endpoint } from '../endpoint';
import { ClaimSubmitted, SubmitClaimBody } from './submit-claim';
import { ClaimList, ListClaimsQuery } from './list-claims';

export const submitClaimEndpoint = endpoint({
  method: 'POST',
  path: '/api/claims/submit',
  tags: ['claims'],
  summary:
    'Submit a draft claim ({ claimId }) or create and submit one ({ patientId, totalCharge in dollars, serviceDate }); needs active eligibility from the last 24 h',
  auth: 'session',
  scope: 'claims:write',
  stepUp: true,
  money: true,
  body: SubmitClaimBody,
  response: ClaimSubmitted,
  errors: ['OUT_OF_SCOPE', 'NOT_FOUND', 'IDEMPOTENCY_KEY_REUSED', 'UNPROCESSABLE'],
});

export const listClaimsEndpoint = endpoint({
  method: 'GET',
  path: '/api/claims',
  tags: ['claims'],
  summary: "The clinic's claims, newest first, at most 100; filters patientId and status",
  auth: 'session',
  scope: 'claims:read',
  query: ListClaimsQuery,
  response: ClaimList,
  errors: ['OUT_OF_SCOPE'],
});

export const claimEndpoints = [submitClaimEndpoint, listClaimsEndpoint];
