// Claims: drafts, the scrubber, submission through the clearinghouse, status, appeals and what was transmitted.
import { endpoint } from '../endpoint';
import { CSV_TYPE, CsvFormat, CsvRecord } from '../csv/csv-table';
import {
  ClaimParams,
  CorrectClaimBody,
  PatchClaimBody,
  SecondaryClaimBody,
  SubmitClaimBody,
  VoidClaimBody,
} from './claim-body';
import { ClaimView } from './claim-view';
import { CreateDraftBody } from './create-claim';
import { ClaimSubmitted } from './submit-claim';
import { ClaimList, ListClaimsQuery } from './list-claims';
import { ClaimDetail } from './get-claim';
import { ClaimStatusQuery, ClaimStatusView } from './claim-status';
import { AppealBody, ClaimAppealed } from './appeal-claim';
import { TransmissionList } from './list-transmissions';
import { ClaimWrittenOff, WriteOffBody } from './write-off-claim';
import { ScrubEditList, ScrubResult } from './scrub-claim-dry-run';
import { FollowUpQuery, FollowUpRun } from './follow-up-claim-status';
import { FinishedSends } from './finish-interrupted-sends';
import { ClaimPatientList, FindClaimPatientsQuery } from './find-claim-patients';

export const submitClaimEndpoint = endpoint({
  method: 'POST',
  path: '/api/claims/submit',
  tags: ['claims'],
  summary:
    'Submit a draft ({ claimId }) or create and submit a claim ({ patientId, serviceDate, placeOfService?, diagnoses, ' +
    'lines, renderingNpi?, totalCharge in dollars }): scrubbed with every edit (422 SCRUB_BLOCKED lists each failing ' +
    'one, nothing sent), then sent as an 837P through the clearinghouse; a 999 A/E makes it submitted and the 277CA ' +
    'accepted or rejected, a 999 R leaves it a draft with the reason. The claim is `sending` while the 837P is out ' +
    '(recorded before the send; no transaction is held across it). 502 when the clearinghouse cannot be reached ' +
    '(the claim is a draft again, the key unused) or when its answer cannot be read (the claim stays `sending` and ' +
    'is never sent again without a person); 422 for a claim that is not a draft; 503 in production without a ' +
    'clearinghouse',
  auth: 'session',
  scope: 'claims:write',
  stepUp: true,
  money: true,
  body: SubmitClaimBody,
  response: ClaimSubmitted,
  errors: [
    'OUT_OF_SCOPE',
    'NOT_FOUND',
    'IDEMPOTENCY_KEY_REUSED',
    'UNPROCESSABLE',
    'SCRUB_BLOCKED',
    'TRANSPORT_FAILED',
    'DEPENDENCY_UNAVAILABLE',
  ],
});

export const listClaimsEndpoint = endpoint({
  method: 'GET',
  path: '/api/claims',
  tags: ['claims'],
  summary:
    "The clinic's claims, newest first, at most 100; filters patientId and status (one status or a comma list, " +
    'e.g. denied,partially_paid). With ?format=csv: the same rows as a streamed text/csv download (cells a spreadsheet would run as formulas neutralised)',
  auth: 'session',
  scope: 'claims:read',
  query: ListClaimsQuery.extend({ format: CsvFormat }),
  response: ClaimList,
  produces: CSV_TYPE,
  streamLine: CsvRecord,
  errors: ['OUT_OF_SCOPE'],
});

export const createClaimEndpoint = endpoint({
  method: 'POST',
  path: '/api/claims',
  tags: ['claims'],
  summary:
    'Create a draft claim ({ patientId, serviceDate, placeOfService?, diagnoses, lines, renderingNpi?, totalCharge?, ' +
    'idempotencyKey? }); it is scrubbed on the dry run and on submit, not here',
  auth: 'session',
  scope: 'claims:write',
  body: CreateDraftBody,
  response: ClaimView,
  successStatus: 201,
  errors: ['OUT_OF_SCOPE', 'IDEMPOTENCY_KEY_REUSED'],
});

export const getClaimEndpoint = endpoint({
  method: 'GET',
  path: '/api/claims/{id}',
  tags: ['claims'],
  summary: 'A claim with its lines, diagnoses, timeline (oldest first) and appeals',
  auth: 'session',
  scope: 'claims:read',
  params: ClaimParams,
  response: ClaimDetail,
  errors: ['NOT_FOUND'],
});

export const updateClaimEndpoint = endpoint({
  method: 'PATCH',
  path: '/api/claims/{id}',
  tags: ['claims'],
  summary:
    'Edit a draft (any of the create fields); a claim rejected by the payer is reopened as a draft by the edit. ' +
    'Any other state is 409',
  auth: 'session',
  scope: 'claims:write',
  params: ClaimParams,
  body: PatchClaimBody,
  response: ClaimView,
  errors: ['NOT_FOUND', 'NOT_EXECUTABLE'],
});

export const scrubClaimEndpoint = endpoint({
  method: 'POST',
  path: '/api/claims/{id}/scrub',
  tags: ['claims'],
  summary: 'Dry run of the scrubber on the claim as it would be sent now: { issues: [{ path, message, edit }] }',
  auth: 'session',
  scope: 'claims:read',
  params: ClaimParams,
  response: ScrubResult,
  errors: ['NOT_FOUND'],
});

export const listScrubEditsEndpoint = endpoint({
  method: 'GET',
  path: '/api/claims/scrub-edits',
  tags: ['claims'],
  summary: "The scrubber's edits: { edits: [{ id, message }] }, in the order they run",
  auth: 'session',
  scope: 'claims:read',
  response: ScrubEditList,
});

export const findClaimPatientsEndpoint = endpoint({
  method: 'GET',
  path: '/api/claims/patients',
  tags: ['claims'],
  summary:
    "The claim editor's patient search (claims:write, for billing without patients:read): the clinic's patients " +
    'whose first or last name holds every word of q, or whose id is q; { patients: [{ patientId, name, birthDate }] }, ' +
    'at most 20, by last name',
  auth: 'session',
  scope: 'claims:write',
  query: FindClaimPatientsQuery,
  response: ClaimPatientList,
});

export const claimStatusEndpoint = endpoint({
  method: 'GET',
  path: '/api/claims/{id}/status',
  tags: ['claims'],
  summary:
    "The payer's word on the claim from the stored 277CA/277 history; refresh=true first asks the payer with a " +
    '276 (real time) and keeps the 277. Echoes correlationId',
  auth: 'session',
  scope: 'claims:read',
  params: ClaimParams,
  query: ClaimStatusQuery,
  response: ClaimStatusView,
  errors: ['NOT_FOUND', 'NOT_EXECUTABLE', 'UNPROCESSABLE', 'TRANSPORT_FAILED', 'DEPENDENCY_UNAVAILABLE'],
});

export const appealClaimEndpoint = endpoint({
  method: 'POST',
  path: '/api/claims/{id}/appeal',
  tags: ['claims'],
  summary:
    'Appeal a denied or partially paid claim ({ reason, attachments? }): records the appeal case and moves the ' +
    'claim to appealed. Echoes correlationId',
  auth: 'session',
  scope: 'claims:write',
  stepUp: true,
  params: ClaimParams,
  body: AppealBody,
  response: ClaimAppealed,
  errors: ['NOT_FOUND', 'NOT_EXECUTABLE'],
});

const SECOND_PASS_ERRORS = [
  'OUT_OF_SCOPE',
  'NOT_FOUND',
  'IDEMPOTENCY_KEY_REUSED',
  'NOT_EXECUTABLE',
  'UNPROCESSABLE',
  'SCRUB_BLOCKED',
  'TRANSPORT_FAILED',
  'DEPENDENCY_UNAVAILABLE',
] as const;

export const correctClaimEndpoint = endpoint({
  method: 'POST',
  path: '/api/claims/{id}/correct',
  tags: ['claims'],
  summary:
    'Correct a claim the payer took: creates and submits a replacement (CLM05-3 7, REF*F8 = the payerClaimId, ' +
    'replacesClaimId set) with any of serviceDate, placeOfService, diagnoses, lines, renderingNpi replacing the ' +
    "original's; scrubbed and sent like any claim. When the payer accepts it the original is closed. 409 for a draft " +
    'or rejected claim (edit and submit it as an original) or one with a replacement or void under way; 422 when ' +
    'the payer gave no claim control number. Nothing is written on any refusal',
  auth: 'session',
  scope: 'claims:write',
  stepUp: true,
  money: true,
  params: ClaimParams,
  body: CorrectClaimBody,
  response: ClaimSubmitted,
  successStatus: 201,
  errors: [...SECOND_PASS_ERRORS],
});

export const voidClaimEndpoint = endpoint({
  method: 'POST',
  path: '/api/claims/{id}/void',
  tags: ['claims'],
  summary:
    'Void a claim the payer took ({ reason }): creates and submits a void (CLM05-3 8, REF*F8 = the payerClaimId, ' +
    'replacesClaimId set); when the payer accepts it both it and the original are closed. Money already posted ' +
    'moves only through 835s (a reversal). Same refusals as correct',
  auth: 'session',
  scope: 'claims:write',
  stepUp: true,
  money: true,
  params: ClaimParams,
  body: VoidClaimBody,
  response: ClaimSubmitted,
  successStatus: 201,
  errors: [...SECOND_PASS_ERRORS],
});

export const secondaryClaimEndpoint = endpoint({
  method: 'POST',
  path: '/api/claims/{id}/secondary',
  tags: ['claims'],
  summary:
    "Bill the secondary payer for what the primary's 835 left: creates and submits the secondary claim (SBR01 S, " +
    "2320 with the primary's AMT*D and claim-level CAS, 2330A/2330B, 2430 SVD/CAS/DTP*573 per line; payerRank " +
    'secondary, primaryClaimId set) to the secondary coverage on file. 409 unless the claim is a primary that a ' +
    'primary 835 (CLP02 1 or 19) left paid with a balance, partially paid or denied, the patient has a secondary ' +
    'coverage with an active eligibility check of it within 24 h, and no secondary is already under way',
  auth: 'session',
  scope: 'claims:write',
  stepUp: true,
  money: true,
  params: ClaimParams,
  body: SecondaryClaimBody,
  response: ClaimSubmitted,
  successStatus: 201,
  errors: [...SECOND_PASS_ERRORS],
});

export const writeOffClaimEndpoint = endpoint({
  method: 'POST',
  path: '/api/claims/{id}/write-off',
  tags: ['claims'],
  summary:
    "Write off part or all of a sent claim's balance ({ amountCents, reason }): posts a balanced ledger transaction " +
    '(kind claim.write_off, reference claim:<id>: Dr expenses:claim-write-offs, Cr assets:claims-receivable), adds ' +
    'to writtenOffCents and, when the balance reaches 0, closes the claim with the reason. 422 unless 0 < amountCents ' +
    '≤ balanceCents; 409 for a draft, sending or closed claim. Concurrent write-offs never exceed the balance',
  auth: 'session',
  scope: 'svcpay:write',
  stepUp: true,
  money: true,
  params: ClaimParams,
  body: WriteOffBody,
  response: ClaimWrittenOff,
  errors: ['NOT_FOUND', 'NOT_EXECUTABLE', 'UNPROCESSABLE'],
});

export const listTransmissionsEndpoint = endpoint({
  method: 'GET',
  path: '/api/claims/{id}/transmissions',
  tags: ['claims'],
  summary: 'Every document sent or received for the claim (837P, 999, 277CA, 276, 277, 835), oldest first, exact bytes',
  auth: 'session',
  scope: 'claims:read',
  params: ClaimParams,
  response: TransmissionList,
  errors: ['NOT_FOUND'],
});

export const claimStatusFollowUpEndpoint = endpoint({
  method: 'POST',
  path: '/api/jobs/claim-status-follow-up',
  tags: ['claims'],
  summary:
    'Claim status follow-up (the 07:00 schedule, by hand): one 276 for each claim accepted 14 or more days ago with ' +
    'no 835, at most once per claim per 7 days; every clinic, or ?clinicId= for one. 503 in production without a ' +
    'clearinghouse',
  auth: 'cron',
  query: FollowUpQuery,
  response: FollowUpRun,
  errors: ['DEPENDENCY_UNAVAILABLE'],
});

export const finishClaimSendsEndpoint = endpoint({
  method: 'POST',
  path: '/api/jobs/claim-sends',
  tags: ['claims'],
  summary:
    'Operators: finish claim sends left `sending` for over 2 minutes (a crash mid-send, or a 999 not ready): asks ' +
    'the clearinghouse for the answer to each exact submission and records it; never sends a claim again, and ' +
    'marks a send the clearinghouse has no answer for as needing a person',
  auth: 'cron',
  response: FinishedSends,
  errors: ['DEPENDENCY_UNAVAILABLE'],
});

export const claimEndpoints = [
  submitClaimEndpoint,
  listClaimsEndpoint,
  createClaimEndpoint,
  getClaimEndpoint,
  updateClaimEndpoint,
  scrubClaimEndpoint,
  listScrubEditsEndpoint,
  findClaimPatientsEndpoint,
  claimStatusEndpoint,
  appealClaimEndpoint,
  correctClaimEndpoint,
  voidClaimEndpoint,
  secondaryClaimEndpoint,
  writeOffClaimEndpoint,
  listTransmissionsEndpoint,
  claimStatusFollowUpEndpoint,
  finishClaimSendsEndpoint,
];
