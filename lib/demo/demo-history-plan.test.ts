import { describe, expect, it } from 'vitest';
import { HISTORY_CLINICS, historyPatients, historyVisits } from './demo-history-plan';

describe('the demo history plan', () => {
  const [north, south] = HISTORY_CLINICS;

  it('gives each clinic its own patients from _101, with denials and one front-end rejection', () => {
    const patients = historyPatients(north);
    expect(patients[0]).toMatchObject({ id: 'pat_n_101', memberId: 'DEMO-ACTIVE-N101', story: 'paid' });
    expect(patients.map((p) => p.id).every((id) => /^pat_n_1\d\d$/.test(id))).toBe(true);
    expect(patients.filter((p) => p.story === 'rejected').map((p) => p.memberId)).toEqual(['DEMO-CH-REJECT-N104']);
    expect(patients.filter((p) => p.story === 'denied').length).toBeGreaterThan(1);
    expect(historyPatients(south).every((p) => p.id.startsWith('pat_s_1') && p.clinicId === 'clinic_south')).toBe(true);
  });

  it('plays the same weekday visits, oldest first, 3 to 88 days back, for the same start date', () => {
    const visits = historyVisits(north, '2026-11-28');
    expect(historyVisits(north, '2026-11-28')).toEqual(visits);
    expect(visits.length).toBeGreaterThanOrEqual(2 * north.patients);
    for (const visit of visits) {
      expect(visit.daysAgo).toBeGreaterThanOrEqual(3);
      expect(visit.daysAgo).toBeLessThanOrEqual(88);
      const weekday = new Date(Date.parse('2026-11-28T00:00:00Z') - visit.daysAgo * 86_400_000).getUTCDay();
      expect([0, 6]).not.toContain(weekday);
    }
    expect(visits.map((v) => v.daysAgo)).toEqual([...visits.map((v) => v.daysAgo)].sort((a, b) => b - a));
    expect(visits.some((v) => v.payerSlow)).toBe(true);
  });
});
