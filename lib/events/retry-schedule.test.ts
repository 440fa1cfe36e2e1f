import { describe, expect, it } from 'vitest';
import { nextAttemptAt } from './retry-schedule';

const first = new Date('2026-11-28T00:00:00Z');
const after = (ms: number) => new Date(first.getTime() + ms);

describe('nextAttemptAt', () => {
  it('waits 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, then 12 h (no jitter at 0.5)', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map(
      (n) => nextAttemptAt(n, first, first, 0.5)!.getTime() - first.getTime(),
    );
    expect(delays).toEqual([10e3, 60e3, 300e3, 1800e3, 7200e3, 21600e3, 43200e3, 43200e3]);
  });

  it('jitters by at most 10 %', () => {
    expect(nextAttemptAt(1, first, first, 0)!.getTime() - first.getTime()).toBe(9_000);
    expect(nextAttemptAt(1, first, first, 0.999999)!.getTime() - first.getTime()).toBeCloseTo(11_000, -1);
  });

  it('gives up when the next attempt would fall past 3 days after the first', () => {
    const day = 24 * 3600e3;
    expect(nextAttemptAt(9, first, after(2 * day), 0.5)).toEqual(after(2 * day + 12 * 3600e3));
    expect(nextAttemptAt(12, first, after(2.6 * day), 0.5)).toBeNull();
  });
});
