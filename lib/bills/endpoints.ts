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

export const billStatementEndpoint = endpoint({
  method: 'GET',
  path: '/api/bills/{id}/statement',
  tags: ['bills'],
  summary:
    "The bill's patient statement as a PDF attachment, as a clinic would mail it: clinic name, address and phone; " +
    "patient name and address; each visit's date, services, charge, insurance paid and adjusted and the patient's " +
    'share; total due, due date (30 days after the statement date), how to pay, and the bill id. A PHI read',
  auth: 'session',
  scope: 'svcpay:read',
  params: BillParams,
  produces: 'application/pdf',
  errors: ['NOT_FOUND'],
});

export const billEndpoints = [getBillEndpoint, listBillsEndpoint, billStatementEndpoint];
