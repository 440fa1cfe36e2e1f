// POST /api/settlement/console/{id}/execute: disburse a SIGNED instruction exactly once (svcpay:write, step-up).
import { route } from '@/lib/http/route';
import { executeInstructionEndpoint } from '@/lib/settlements/endpoints';
import { executeInstruction } from '@/lib/settlements/execute-instruction';

export const POST = route(executeInstructionEndpoint, ({ params, body, actor, deps }) =>
  executeInstruction(deps, { ...body, ...actor, instructionId: params.id }),
);
