// POST /api/eligibility/verify: real-time 270/271 check for one patient of the caller's clinic (eligibility:read).
import { route } from '@/lib/http/route';
import { requirePayer } from '@/lib/deps';
import { postEligibilityVerify } from '@/lib/eligibility/endpoints';
import { verifyEligibility } from '@/lib/eligibility/verify-eligibility';

export const POST = route(postEligibilityVerify, ({ body, actor, deps }) =>
  verifyEligibility({ ...deps, payer: requirePayer(deps) }, actor, body),
);
