// Settlement: instructions (create a DRAFT, sign it, read it), the encounter gate and the console's execute.
import { z } from 'zod';
import { endpoint } from '../endpoint';
import { InstructionView } from './instruction-view';
import { CreateInstructionBody } from './create-instruction';
import { ExecuteInstructionBody } from './execute-instruction';
import { GateParams, SettlementGateView } from './clear-settlement-gate';
import { SettlementOverview } from './settlement-overview';

const InstructionParams = z.object({ id: z.string().trim().min(1).max(200) });

export const createInstructionEndpoint = endpoint({
  method: 'POST',
  path: '/api/settlement/instructions',
  tags: ['settlement'],
  summary: "Create a DRAFT instruction advancing advanceAmountCents from one of the clinic's pools, with its waterfall",
  auth: 'session',
  scope: 'svcpay:write',
  money: true,
  body: CreateInstructionBody,
  response: InstructionView,
  successStatus: 201,
  errors: ['NOT_FOUND'],
});

export const getInstructionEndpoint = endpoint({
  method: 'GET',
  path: '/api/settlement/instructions/{id}',
  tags: ['settlement'],
  summary: 'One settlement instruction of the clinic',
  auth: 'session',
  scope: 'svcpay:read',
  params: InstructionParams,
  response: InstructionView,
  errors: ['NOT_FOUND'],
});

export const settlementOverviewEndpoint = endpoint({
  method: 'GET',
  path: '/api/settlement/overview',
  tags: ['settlement'],
  summary: "The clinic's settlement pools and its 20 newest instructions (newest first), for the settlement console",
  auth: 'session',
  scope: 'svcpay:read',
  response: SettlementOverview,
});

export const signInstructionEndpoint = endpoint({
  method: 'POST',
  path: '/api/settlement/instructions/{id}/sign',
  tags: ['settlement'],
  summary: 'Sign an unexpired DRAFT instruction (step-up)',
  auth: 'session',
  scope: 'svcpay:write',
  stepUp: true,
  params: InstructionParams,
  response: InstructionView,
  errors: ['NOT_FOUND', 'NOT_EXECUTABLE'],
});

export const settlementGateEndpoint = endpoint({
  method: 'POST',
  path: '/api/settlement/gate/{encounterId}',
  tags: ['settlement'],
  summary: 'Clear an encounter for settlement (step-up); instructions naming the encounter execute only after this',
  auth: 'session',
  scope: 'svcpay:write',
  stepUp: true,
  money: true,
  params: GateParams,
  response: SettlementGateView,
});

export const executeInstructionEndpoint = endpoint({
  method: 'POST',
  path: '/api/settlement/console/{id}/execute',
  tags: ['settlement'],
  summary: 'Disburse a SIGNED instruction exactly once (step-up); posts the disbursement to the ledger',
  auth: 'session',
  scope: 'svcpay:write',
  stepUp: true,
  money: true,
  params: InstructionParams,
  body: ExecuteInstructionBody,
  response: InstructionView,
  errors: ['NOT_FOUND', 'NOT_EXECUTABLE', 'UNPROCESSABLE'],
});

export const settlementEndpoints = [
  createInstructionEndpoint,
  getInstructionEndpoint,
  settlementOverviewEndpoint,
  signInstructionEndpoint,
  settlementGateEndpoint,
  executeInstructionEndpoint,
];
