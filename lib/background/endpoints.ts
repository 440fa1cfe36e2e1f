// Background work, read and retried by a clinic admin (scope users:admin; DECISIONS "Recurring work").
import { endpoint } from '../endpoint';
import { JobList } from './list-jobs';
import { JobParams, RetriedJob } from './retry-job';

export const listJobsEndpoint = endpoint({
  method: 'GET',
  path: '/api/jobs',
  tags: ['jobs'],
  summary:
    "The clinic's background jobs, newest first, at most 100 (state created, active, retry, completed, failed or " +
    'cancelled; a failed job is a dead letter, its lastError in words), and the schedules that run for the clinic ' +
    'with their last and next run and how the last run ended (lastRunState; lastRunError: why it failed, in words)',
  auth: 'session',
  scope: 'users:admin',
  response: JobList,
});

export const retryJobEndpoint = endpoint({
  method: 'POST',
  path: '/api/jobs/{id}/retry',
  tags: ['jobs'],
  summary:
    "Put a failed job of the clinic back on its queue (step-up); another clinic's job is 404; a job that has not " +
    'failed, and a failed EMR pull or bulk export (start a new one instead), are 409 NOT_EXECUTABLE',
  auth: 'session',
  scope: 'users:admin',
  stepUp: true,
  params: JobParams,
  response: RetriedJob,
  errors: ['NOT_FOUND', 'NOT_EXECUTABLE'],
});

export const jobEndpoints = [listJobsEndpoint, retryJobEndpoint];
