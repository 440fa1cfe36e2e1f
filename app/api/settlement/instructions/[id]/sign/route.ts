// POST /api/settlement/instructions/{id}/sign: DRAFT to SIGNED (svcpay:write, step-up).
import { route } from '@/lib/http/route';
import { signInstructionEndpoint } from '@/lib/settlements/endpoints';
import { signInstruction } from '@/lib/settlements/sign-instruction';

export const POST = route(signInstructionEndpoint, ({ params, actor, deps }) =>
  signInstruction(deps, { ...actor, instructionId: params.id }),
);
