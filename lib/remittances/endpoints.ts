// Remittances (X12 835): the staff upload, the list and detail screens' reads, and the denial work queue
// (DECISIONS "Money in").
import { z } from 'zod';
import { endpoint } from '../endpoint';
import { DenialList, ListDenialsQuery } from './list-denials';
import { RemittanceDetail, RemittanceList, RemittanceParams } from './remittance-view';
import { RetrievalRun } from './retrieve-remittances';

const Cents = z.number().int();

export const UploadResult = z.object({
  remittances: z.array(
    z.object({
      remittanceId: z.string(),
      payerId: z.string(),
      traceNumber: z.string(),
      paymentCents: Cents,
      duplicate: z.boolean(),
      /** CLPs posted to their claims. */
      claimsPosted: z.number().int(),
      /** CLPs kept as `unmatched` (no transmitted claim of the clinic): posted nowhere, a reconciliation variance. */
      claimsUnmatched: z.number().int(),
    }),
  ),
  correlationId: z.string(),
});

export const uploadRemittanceEndpoint = endpoint({
  method: 'POST',
  path: '/api/remittances',
  tags: ['remittances'],
  summary:
    'Post an X12 835 interchange (one or several 835s): multipart/form-data with the file in field `file`, or JSON `{ "x12": "ISA*..." }`. The request body is capped at 5 MiB and the interchange itself at 1 MiB (413). 422 when an 835 is unreadable, empty, unbalanced, or has no CLP naming a claim of the clinic that was sent: nothing of the interchange is posted. A CLP naming a draft or a claim the clinic does not have is kept as `unmatched` with its amounts and posts nowhere. Idempotent on (payer id, TRN02): a copy answers the first posting with duplicate: true.',
  auth: 'session',
  scope: 'svcpay:write',
  money: true,
  response: UploadResult,
  errors: ['VALIDATION_FAILED', 'UNPROCESSABLE', 'PAYLOAD_TOO_LARGE'],
});

export const listRemittancesEndpoint = endpoint({
  method: 'GET',
  path: '/api/remittances',
  tags: ['remittances'],
  summary: "The clinic's posted remittances, newest first, at most 100",
  auth: 'session',
  scope: 'svcpay:read',
  response: RemittanceList,
});

export const getRemittanceEndpoint = endpoint({
  method: 'GET',
  path: '/api/remittances/{id}',
  tags: ['remittances'],
  summary:
    "One posted remittance: its provider-level adjustments (PLB) and each claim's payment, adjustments (CARC) and remarks (RARC) with their words",
  auth: 'session',
  scope: 'svcpay:read',
  params: RemittanceParams,
  response: RemittanceDetail,
  errors: ['NOT_FOUND'],
});

export const listDenialsEndpoint = endpoint({
  method: 'GET',
  path: '/api/denials',
  tags: ['remittances'],
  summary:
    "The denial work queue: the clinic's denied and partially paid claims, newest first (at most 100), with their " +
    'reason and remark codes in words, balanceCents, nextAction (write_off, correct_and_resubmit, appeal, ' +
    'bill_secondary, bill_patient or none: the first rule that matches) with nextActionReason in words, and the ' +
    'appeal route; ?nextAction= keeps one action; counts gives the claims per action in the whole queue',
  auth: 'session',
  scope: 'claims:read',
  query: ListDenialsQuery,
  response: DenialList,
});

export const eraRetrievalEndpoint = endpoint({
  method: 'POST',
  path: '/api/jobs/era-retrieval',
  tags: ['remittances'],
  summary:
    'ERA retrieval (the hourly schedule, by hand): fetch the 835s waiting at the clearinghouse (CAQH CORE batch ' +
    'results retrieval), post each through the remittance ingest once (idempotent on payer id + TRN02) and ' +
    'acknowledge it with a 999; an interchange that cannot be posted is listed in `refused` and left there. 501 ' +
    'without CLEARINGHOUSE_*',
  auth: 'cron',
  response: RetrievalRun,
  errors: ['NOT_CONFIGURED', 'TRANSPORT_FAILED'],
});

export const remittanceEndpoints = [
  uploadRemittanceEndpoint,
  listRemittancesEndpoint,
  getRemittanceEndpoint,
  listDenialsEndpoint,
  eraRetrievalEndpoint,
];
