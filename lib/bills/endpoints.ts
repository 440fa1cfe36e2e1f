// Patient bills: the list with payments, and one bill with its payments' ledger transactions.
import { endpoint } from '../endpoint';
import { BillParams, BillView } from './get-bill';
import { BillList } from './list-bills';

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

export const listBillsEndpoint = endpoint({
  method: 'GET',
  path: '/api/bills',
  tags: ['bills'],
  summary:
    "The clinic's patient bills, newest first, at most 100, each with its payments (a bill raised by a remittance names its claim)",
  auth: 'session',
  scope: 'svcpay:read',
  response: BillList,
});

export const billEndpoints = [getBillEndpoint, listBillsEndpoint];
