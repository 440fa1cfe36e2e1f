// POST /api/settlement/instructions/{id}/sign: DRAFT to SIGNED (svcpay:write, step-up).
import { route } from '@/lib/http/route';
import { signInstructionEndpoint } from '@/lib/settlements/endpoints';
import { signInstruction } from '@/lib/settlements/sign-instruction';

export const POST = route(signInstructionEndpoint, ({ params, principal, deps, correlationId }) =>
  signInstruction(deps, { clinicId: principal.clinicId, orgId: principal.orgId, userId: principal.userId, instructionId: params.id, correlationId }));
