// Patient bills: read one, with its payments' ledger transactions.
import { endpoint } from '../endpoint';
import { BillParams, BillView } from './get-bill';

export const getBillEndpoint = endpoint({
  method: 'GET',
  path: '/api/bills/{id}',
  tags: ['bills'],
  summary: 'One patient bill of the clinic: amount, paid so far, status and the ledger transactions of its payments',
  auth: 'session',
  scope: 'svcpay:read',
  params: BillParams,
  response: BillView,
  errors: ['NOT_FOUND'],
});

export const billEndpoints = [getBillEndpoint];
