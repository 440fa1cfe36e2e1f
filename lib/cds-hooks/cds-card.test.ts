// The one card builder: CDS Hooks 2.0's summary is a "<140-character summary message".
import { describe, expect, it } from 'vitest';
import { buildCard } from './cds-card';

describe('buildCard', () => {
  it('keeps a summary under 140 characters, cut with an ellipsis and never inside a surrogate pair', () => {
    expect(buildCard({ summary: 'x'.repeat(139), indicator: 'info' }).summary).toBe('x'.repeat(139));
    expect(buildCard({ summary: 'x'.repeat(140), indicator: 'info' }).summary).toBe(`${'x'.repeat(138)}…`);
    const summary = buildCard({ summary: `${'x'.repeat(137)}😀 and more`, indicator: 'info' }).summary;
    expect(summary).toBe(`${'x'.repeat(137)}…`);
    expect(summary.length).toBeLessThan(140);
  });
});
