// Remittances (X12 835): the staff upload, the list and detail screens' reads, and the denial work queue
// (DECISIONS "Money in").
import { z } from 'zod';
import { endpoint } from '../endpoint';
import { CSV_TYPE, CsvFormatQuery, CsvRecord } from '../csv/csv-table';
import { DenialList, ListDenialsQuery } from './list-denials';
import { EraPostingList } from './list-era-postings';
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
    'Post an X12 835 interchange (one or several 835s): the file itself as `application/edi-x12` (read while it streams), multipart/form-data with the file in field `file`, or JSON `{ "x12": "ISA*..." }`. The request body and the interchange are capped at 64 MiB (413; a body is cut off at the cap, never read further). Posting is a handful of set-based statements per chunk of CLPs, the whole interchange in one transaction. 422 when an 835 is unreadable, empty, unbalanced, has no CLP naming a claim of the clinic that was sent or none its claim can take, or reuses the payer id and TRN02 of a different 835 posted before: nothing of the interchange is posted. A CLP naming a draft or a claim the clinic does not have, a reversal (CLP02 22) whose amounts are not negated or that takes back more than was posted, a payment to a closed claim, or a later payer\'s payment (CLP02 2, 3, 20, 21) before the primary\'s is kept as `unmatched` with its amounts and reason and posts nowhere. Idempotent on (payer id, TRN02): a copy of the same 835 answers the first posting with duplicate: true.',
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

export const listEraPostingsEndpoint = endpoint({
  method: 'GET',
  path: '/api/remittances/postings',
  tags: ['remittances'],
  summary:
    "The clinic's ERAs of more than 500 claims posted in the background after their webhook answered 202, newest " +
    'first, at most 100: state (queued, posting, posted, or failed with failureReason in words and willRetry), ' +
    'claimsPosted of claimsTotal while it posts, attempts, and the remittance ids once posted',
  auth: 'session',
  scope: 'svcpay:read',
  response: EraPostingList,
});

export const getRemittanceEndpoint = endpoint({
  method: 'GET',
  path: '/api/remittances/{id}',
  tags: ['remittances'],
  summary:
    "One posted remittance: its provider-level adjustments (PLB) and each claim's payment, adjustments (CARC) and remarks (RARC) with their words. With ?format=csv: the same rows as a streamed text/csv download (cells a spreadsheet would run as formulas neutralised): one record per service line",
  auth: 'session',
  scope: 'svcpay:read',
  params: RemittanceParams,
  query: CsvFormatQuery,
  response: RemittanceDetail,
  produces: CSV_TYPE,
  streamLine: CsvRecord,
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
    'appeal route; ?nextAction= keeps one action; counts gives the claims per action in the whole queue. With ' +
    '?format=csv: the same rows as a streamed text/csv download (cells a spreadsheet would run as formulas neutralised)',
  auth: 'session',
  scope: 'claims:read',
  query: ListDenialsQuery.extend(CsvFormatQuery.shape),
  response: DenialList,
  produces: CSV_TYPE,
  streamLine: CsvRecord,
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
  listEraPostingsEndpoint,
  getRemittanceEndpoint,
  listDenialsEndpoint,
  eraRetrievalEndpoint,
];
