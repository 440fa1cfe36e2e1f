import { describe, expect, it } from 'vitest';
import { codeMatches, findRule, KnowledgeBase } from './knowledge-base';
import { SANDBOX_KNOWLEDGE_BASE } from './sandbox-knowledge-base';
import { dollars } from './cds-card';

describe('knowledge base', () => {
  it('matches a code exactly or inside a range of the same length', () => {
    expect(codeMatches('72141-72158', '72148')).toBe(true);
    expect(codeMatches('72141-72158', '72159')).toBe(false);
    expect(codeMatches('72141-72158', '7214')).toBe(false);
    expect(codeMatches('97110', '97110')).toBe(true);
    expect(codeMatches('97110', '97112')).toBe(false);
  });

  it("finds only the patient's payer's rule", () => {
    expect(findRule(SANDBOX_KNOWLEDGE_BASE, '60054', '70552')?.requirement).toBe('prior-auth');
    expect(findRule(SANDBOX_KNOWLEDGE_BASE, '99999', '70552')).toBeNull();
    expect(findRule(SANDBOX_KNOWLEDGE_BASE, '60054', '99213')).toBeNull();
  });

  it('the embedded sandbox rules obey the ruled shape, and a malformed document is refused', () => {
    expect(KnowledgeBase.safeParse(SANDBOX_KNOWLEDGE_BASE).success).toBe(true);
    expect(
      KnowledgeBase.safeParse({
        version: '1',
        rules: [{ payerId: 'x', codes: ['7'], requirement: 'maybe', text: 't' }],
      }).success,
    ).toBe(false);
  });

  it('writes cents as dollars without a float', () => {
    expect(dollars(150000)).toBe('$1,500.00');
    expect(dollars(2505)).toBe('$25.05');
    expect(dollars(0)).toBe('$0.00');
  });
});
