import { describe, expect, it } from 'vitest';
import { describeJobError } from './describe-job-error';
import { keyedJobId } from './keyed-job-id';

describe('describeJobError', () => {
  it.each([
    [
      'a dead worker',
      'failed',
      { value: { message: 'job heartbeat timeout' } },
      'Its worker stopped answering (the instance was stopped or died) before it finished',
    ],
    ['an overrun', 'retry', { value: { message: 'job timed out' } }, 'It ran longer than its time limit'],
    [
      'a graceful stop past its deadline',
      'retry',
      { value: 'pg-boss shut down while active' },
      'Its instance was stopped before it finished',
    ],
    [
      'our own words',
      'failed',
      {
        name: 'JobFailure',
        message: 'The clinic has no billing provider on file\nmore',
        stack: 'JobFailure: …\n at x',
      },
      'The clinic has no billing provider on file',
    ],
    [
      'anything else (a bug, SQL)',
      'failed',
      { name: 'PrismaClientKnownRequestError', message: 'SELECT * FROM "Patient" failed', stack: 's' },
      'It failed with an unexpected error (the server log has the details under this job id)',
    ],
    ['a completed job', 'completed', { exported: true }, null],
    ['a queued job', 'created', null, null],
    ['an output without an error', 'active', { files: 2 }, null],
  ])('words %s', (_case, state, output, expected) => {
    expect(describeJobError(state, output)).toBe(expected);
  });

  it('never returns more than 300 characters', () => {
    expect(describeJobError('failed', { name: 'JobFailure', message: 'x'.repeat(1000) })).toHaveLength(300);
  });
});

describe('keyedJobId', () => {
  it('is a stable UUID per queue and key, different across queues and keys', () => {
    const id = keyedJobId('bulk-export', 'bx_1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keyedJobId('bulk-export', 'bx_1')).toBe(id);
    expect(new Set([id, keyedJobId('bulk-export', 'bx_2'), keyedJobId('reconcile', 'bx_1')]).size).toBe(3);
  });
});
