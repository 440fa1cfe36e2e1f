// GET /api/settlement/instructions/{id}: one settlement instruction of the clinic (svcpay:read).
import { route } from '@/lib/http/route';
import { getInstructionEndpoint } from '@/lib/settlements/endpoints';
import { getInstruction } from '@/lib/settlements/get-instruction';

export const GET = route(getInstructionEndpoint, ({ params, actor, deps }) =>
  getInstruction(deps, { clinicId: actor.clinicId, instructionId: params.id }),
);
