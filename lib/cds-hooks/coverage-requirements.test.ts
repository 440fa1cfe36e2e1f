import { describe, expect, it } from 'vitest';
import { requirementCards } from './coverage-requirements';
import type { KnowledgeBase } from './knowledge-base';
import type { MatchedPatient } from './match-patient';

const patient: MatchedPatient = {
  id: 'pat_1',
  firstName: 'Ava',
  lastName: 'North',
  birthDate: '1971-02-11',
  coverage: { payerId: '60054', payerName: 'Aetna Better Health of the Commonwealth', memberId: 'M1' },
  matchedBy: 'coverage',
};
const base: KnowledgeBase = {
  version: '1',
  rules: [{ payerId: '60054', codes: ['70551'], requirement: 'prior-auth', text: 'Brain MRI needs an approval.' }],
};
const order = (display: string) => ({
  resourceType: 'Bundle',
  entry: [
    {
      resource: {
        resourceType: 'ServiceRequest',
        id: 'sr-1',
        code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '70551', display }] },
      },
    },
  ],
});

describe('coverage-requirements card summary', () => {
  it("names the order's display when the whole is shorter than 140 characters", () => {
    const [card] = requirementCards(base, patient, order('MRI brain without contrast'));
    expect(card!.summary).toBe(
      '70551 (MRI brain without contrast): prior authorization required by Aetna Better Health of the Commonwealth',
    );
  });

  it("drops a long display from the summary, never the payer's name, and keeps it in the detail", () => {
    const display = 'Magnetic resonance (eg, proton) imaging, brain (including brain stem); without contrast material';
    const [card] = requirementCards(base, patient, order(display));
    expect(card!.summary).toBe('70551: prior authorization required by Aetna Better Health of the Commonwealth');
    expect(card!.summary.length).toBeLessThan(140);
    expect(card!.detail).toContain(display);
    expect(card!.detail).toContain('Brain MRI needs an approval.');
  });
});
