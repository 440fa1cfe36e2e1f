// Patients: the clinic's patient list and record, and the coverage on file that eligibility checks are compared with.
import { endpoint } from '../endpoint';
import { PatientDetail } from './get-patient';
import { ListPatientsQuery, PatientList } from './list-patients';
import { CoverageBody, CoverageView, PatientParams } from './update-coverage';

export const listPatientsEndpoint = endpoint({
  method: 'GET',
  path: '/api/patients',
  tags: ['patients'],
  summary:
    "The clinic's patients by name (each word in the first or last name), date of birth or part of the member " +
    'id, ordered by name, at most 100 (`limit`, default 50; `truncated` when more matched). Each patient answered ' +
    'is logged as a PHI read',
  auth: 'session',
  scope: 'patients:read',
  query: ListPatientsQuery,
  response: PatientList,
});

export const getPatientEndpoint = endpoint({
  method: 'GET',
  path: '/api/patients/{id}',
  tags: ['patients'],
  summary:
    'One patient of the clinic: demographics, the primary and secondary coverage on file, the 20 most recent eligibility checks and up to 50 ' +
    "appointments, newest first (logged as a PHI read). Another clinic's patient, or none, is 403 OUT_OF_SCOPE",
  auth: 'session',
  scope: 'patients:read',
  params: PatientParams,
  response: PatientDetail,
  errors: ['OUT_OF_SCOPE'],
});

export const putPatientCoverageEndpoint = endpoint({
  method: 'PUT',
  path: '/api/patients/{id}/coverage',
  tags: ['patients'],
  summary:
    "Replace a patient's coverage on file ({ payerId, memberId, groupNumber?, rank? }; rank primary (default) or " +
    'secondary; audited). Claims need an active eligibility check of the coverage they bill, so checks of the ' +
    'previous coverage no longer count',
  auth: 'session',
  scope: 'claims:write',
  params: PatientParams,
  body: CoverageBody,
  response: CoverageView,
  errors: ['OUT_OF_SCOPE'],
});

export const patientEndpoints = [listPatientsEndpoint, getPatientEndpoint, putPatientCoverageEndpoint];
