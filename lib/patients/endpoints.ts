// Patients: the coverage on file that eligibility checks are compared with.
import { endpoint } from '../endpoint';
import { CoverageBody, CoverageView, PatientParams } from './update-coverage';

export const putPatientCoverageEndpoint = endpoint({
  method: 'PUT',
  path: '/api/patients/{id}/coverage',
  tags: ['patients'],
  summary:
    "Replace a patient's coverage on file ({ payerId, memberId, groupNumber? }; audited). Claims need an active " +
    'eligibility check of the coverage on file, so checks of the previous coverage no longer count',
  auth: 'session',
  scope: 'claims:write',
  params: PatientParams,
  body: CoverageBody,
  response: CoverageView,
  errors: ['OUT_OF_SCOPE'],
});

export const patientEndpoints = [putPatientCoverageEndpoint];
