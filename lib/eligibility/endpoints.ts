import { endpoint, NDJSON_TYPE } from '../endpoint';
import { RosterBody, RosterProgressLine, RosterResponse } from './check-roster';
import { EligibilityResult } from './eligibility-result';
import { VerifyEligibilityBody } from './verify-eligibility-body';

export const postEligibilityVerify = endpoint({
  method: 'POST',
  path: '/api/eligibility/verify',
  tags: ['eligibility'],
  summary:
    'Real-time 270/271 eligibility check for one patient of the clinic (24 h cache; evidence with explain: true)',
  auth: 'session',
  scope: 'eligibility:read',
  body: VerifyEligibilityBody,
  response: EligibilityResult,
  errors: ['OUT_OF_SCOPE', 'TRANSPORT_FAILED', 'DEPENDENCY_UNAVAILABLE'],
});

export const postEligibilityRoster = endpoint({
  method: 'POST',
  path: '/api/eligibility/roster',
  tags: ['eligibility'],
  summary:
    "Eligibility for a day's appointments through a capped pool. JSON by default; with Accept: application/x-ndjson, " +
    'one line per finished appointment {type:"result", index, ...} then {type:"summary", summary}',
  auth: 'session',
  scope: 'eligibility:read',
  body: RosterBody,
  response: RosterResponse,
  errors: ['OUT_OF_SCOPE', 'DEPENDENCY_UNAVAILABLE'],
  produces: NDJSON_TYPE,
  streamLine: RosterProgressLine,
});

export const eligibilityEndpoints = [postEligibilityVerify, postEligibilityRoster];
