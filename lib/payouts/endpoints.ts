// Money out (DECISIONS "Money out"): the clinic's payout account and NACHA payout batches.
import { z } from 'zod';
import { endpoint } from '../endpoint';
import { PayoutAccountBody, PayoutAccountView } from './payout-account';
import { CreateBatchBody, CreatedBatch } from './create-batch';
import { BatchList, PayoutBatchView } from './batch-view';

const BatchParams = z.object({ id: z.string().trim().min(1).max(200) });

export const getPayoutAccountEndpoint = endpoint({
  method: 'GET',
  path: '/api/clinic/payout-account',
  tags: ['clinic'],
  summary: "The clinic's payout account, masked (last 4 digits), and whether its prenote has been confirmed",
  auth: 'session',
  scope: 'users:admin',
  response: PayoutAccountView,
  errors: ['NOT_FOUND', 'DEPENDENCY_UNAVAILABLE'],
});

export const putPayoutAccountEndpoint = endpoint({
  method: 'PUT',
  path: '/api/clinic/payout-account',
  tags: ['clinic'],
  summary:
    "Set the clinic's payout account (ABA-checked routing number, 4–17 digit account number), sealed at rest; " +
    'unverified until the bank confirms the batch carrying its prenote. users:admin, step-up, audited',
  auth: 'session',
  scope: 'users:admin',
  stepUp: true,
  body: PayoutAccountBody,
  response: PayoutAccountView,
  errors: ['DEPENDENCY_UNAVAILABLE'],
});

export const listBatchesEndpoint = endpoint({
  method: 'GET',
  path: '/api/settlement/batches',
  tags: ['settlement'],
  summary:
    "The clinic's 50 newest payout batches, newest first, with their entries, confirmation and returns; and " +
    "`payoutAccount`, where the clinic's payout account stands: none, needs_prenote (the next batch, of no " +
    'instructions, carries its prenote), prenote_sent (awaiting the bank) or verified (batches of instructions)',
  auth: 'session',
  scope: 'svcpay:read',
  response: BatchList,
});

export const createBatchEndpoint = endpoint({
  method: 'POST',
  path: '/api/settlement/batches',
  tags: ['settlement'],
  summary:
    'Build one NACHA ACH file (CCD+, an addenda naming each instruction) from SIGNED instructions, with the ' +
    "payout account's prenote if it is unproven. Every failed check is 422 with all issues, nothing written (step-up). " +
    'Each file of a day has its own File ID Modifier (A-Z, 0-9): a 37th file that day is 409; so is a create once ' +
    "the originator's 7-digit trace numbers are used up",
  auth: 'session',
  scope: 'svcpay:write',
  stepUp: true,
  money: true,
  body: CreateBatchBody,
  response: CreatedBatch,
  successStatus: 201,
  errors: ['UNPROCESSABLE', 'NOT_EXECUTABLE', 'DEPENDENCY_UNAVAILABLE'],
});

export const getBatchEndpoint = endpoint({
  method: 'GET',
  path: '/api/settlement/batches/{id}',
  tags: ['settlement'],
  summary: 'One payout batch: status, entries, confirmation and returns',
  auth: 'session',
  scope: 'svcpay:read',
  params: BatchParams,
  response: PayoutBatchView,
  errors: ['NOT_FOUND'],
});

export const getBatchFileEndpoint = endpoint({
  method: 'GET',
  path: '/api/settlement/batches/{id}/file',
  tags: ['settlement'],
  summary: 'The exact NACHA file of the batch, as uploaded to the bank; 409 until the batch is released',
  auth: 'session',
  scope: 'svcpay:read',
  params: BatchParams,
  produces: 'text/plain',
  errors: ['NOT_FOUND', 'NOT_EXECUTABLE'],
});

export const releaseBatchEndpoint = endpoint({
  method: 'POST',
  path: '/api/settlement/batches/{id}/release',
  tags: ['settlement'],
  summary:
    'Release a created batch exactly once (step-up): its pools give up the advances; the ledger posts each ' +
    'disbursement and the instructions become DISBURSED when the bank confirms the trace number. 409 once its ' +
    'effective entry date (New York) has come: the batch is then withdrawn, its instructions free for a new batch',
  auth: 'session',
  scope: 'svcpay:write',
  stepUp: true,
  money: true,
  params: BatchParams,
  response: PayoutBatchView,
  errors: ['NOT_FOUND', 'NOT_EXECUTABLE'],
});

export const payoutEndpoints = [
  getPayoutAccountEndpoint,
  putPayoutAccountEndpoint,
  listBatchesEndpoint,
  createBatchEndpoint,
  getBatchEndpoint,
  getBatchFileEndpoint,
  releaseBatchEndpoint,
];
