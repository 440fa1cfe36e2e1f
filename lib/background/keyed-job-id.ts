// A job id derived from its queue and a key: pg-boss inserts a job whose id exists already as nothing (send returns
// null), so the same work is queued once per key for as long as the job is kept (a bulk export, a clinic's
// pre-verification of one day), whatever the number of instances or schedulers asking.
import { createHash } from 'node:crypto';

/** A UUID (version 8, name-based) for queue + key; the same inputs always give the same id. */
export function keyedJobId(queue: string, key: string): string {
  const hex = createHash('sha256').update(`${queue}\u0000${key}`).digest('hex').slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
