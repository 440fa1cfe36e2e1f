// POST /api/settlement/instructions: create a DRAFT settlement instruction with its waterfall (svcpay:write).
import { route } from '@/lib/http/route';
import { createInstructionEndpoint } from '@/lib/settlements/endpoints';
import { createInstruction } from '@/lib/settlements/create-instruction';

export const POST = route(createInstructionEndpoint, ({ body, actor, deps }) =>
  createInstruction(deps, { ...body, ...actor }),
);
