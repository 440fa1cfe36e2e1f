// A job's last error in words for GET /api/jobs: what our handlers threw (JobFailure messages, written to be shown)
// or what pg-boss recorded when a worker died, overran or was stopped. Never a stack, SQL or anything else from the
// output.
const ENGINE_REASONS: Record<string, string> = {
  'job heartbeat timeout': 'Its worker stopped answering (the instance was stopped or died) before it finished',
  'job timed out': 'It ran longer than its time limit',
  // A graceful stop's deadline passed with the job still running (lib/background/exit-gracefully.ts).
  'pg-boss shut down while active': 'Its instance was stopped before it finished',
};

const MAX_LENGTH = 300;

/** @returns null when the job carries no error (completed, or never failed). */
export function describeJobError(state: string, output: unknown): string | null {
  if (state === 'completed' || state === 'created') return null;
  const message = errorMessageOf(output);
  if (message === null) return null;
  const words = ENGINE_REASONS[message] ?? message.split('\n')[0]!.trim();
  return words.length > MAX_LENGTH ? `${words.slice(0, MAX_LENGTH - 1)}…` : words;
}

function errorMessageOf(output: unknown): string | null {
  if (!output || typeof output !== 'object') return null;
  const record = output as Record<string, unknown>;
  if (record.value && typeof record.value === 'object') return errorMessageOf(record.value);
  // The engine's own reason, as a bare string (a job it failed at a shutdown).
  if (typeof record.value === 'string') return record.value;
  if (typeof record.message !== 'string') return null;
  // A handler's error: only a JobFailure's message was written to be shown; anything else stays in the log.
  if (typeof record.name === 'string' && record.name !== 'JobFailure') {
    return 'It failed with an unexpected error (the server log has the details under this job id)';
  }
  return record.message;
}
