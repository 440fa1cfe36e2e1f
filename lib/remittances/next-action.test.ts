// The next-action table and its order (DECISIONS "Claim lifecycle"): every rule, and which one wins.
import { describe, expect, it } from 'vitest';
import { CODE_RULES, nextActionFor, type NextActionInput } from './next-action';

const base: NextActionInput = {
  reasonCodes: [],
  lineRemarkCodes: [],
  balanceCents: 0,
  patientResponsibilityCents: 0,
  hasSecondaryCoverage: false,
};
const actionOf = (input: Partial<NextActionInput>) => nextActionFor({ ...base, ...input }).nextAction;

describe('nextActionFor', () => {
  it.each([
    ['29', 'write_off'],
    ['119', 'write_off'],
    ...['4', '5', '6', '7', '8', '9', '10', '11', '16', '125', '146', '181', '182'].map((c) => [
      c,
      'correct_and_resubmit',
    ]),
    ...['50', '56', '96', '150', '151', '197', '15'].map((c) => [c, 'appeal']),
    ['18', 'none'],
  ])('maps CARC %s to %s', (code, action) => {
    expect(actionOf({ reasonCodes: [code!], balanceCents: 10_000 })).toBe(action);
  });

  it('lists every ruled code exactly once in the table', () => {
    const codes = CODE_RULES.flatMap((rule) => rule.codes);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).toHaveLength(2 + 13 + 7 + 1);
  });

  it('says why in words and names the code it acted on', () => {
    expect(nextActionFor({ ...base, reasonCodes: ['45', '197'] })).toEqual({
      nextAction: 'appeal',
      nextActionReason:
        'The authorization was missing or invalid; obtain it (or its number) and appeal with it attached. (CARC 197)',
    });
  });

  it('asks for a corrected claim when the payer put a remark code on a line', () => {
    expect(nextActionFor({ ...base, lineRemarkCodes: ['N130'], balanceCents: 500 })).toEqual({
      nextAction: 'correct_and_resubmit',
      nextActionReason:
        'The payer flagged a service line; fix what the remark names and send a corrected claim (RARC N130).',
    });
  });

  it('bills the secondary payer for any balance the primary left when a secondary coverage is on file', () => {
    expect(actionOf({ balanceCents: 1, hasSecondaryCoverage: true })).toBe('bill_secondary');
    expect(actionOf({ patientResponsibilityCents: 2_000, hasSecondaryCoverage: true })).toBe('bill_secondary');
    expect(actionOf({ hasSecondaryCoverage: true })).toBe('none');
  });

  it("bills the patient for the patient's share when there is no secondary coverage", () => {
    expect(actionOf({ patientResponsibilityCents: 2_000 })).toBe('bill_patient');
    expect(actionOf({ balanceCents: 2_000 })).toBe('none');
  });

  it('answers none when nothing is owed, and says so', () => {
    expect(nextActionFor(base)).toEqual({ nextAction: 'none', nextActionReason: 'Nothing is owed on this claim.' });
  });

  it('answers none with a word to look by hand when codes it does not know leave a balance', () => {
    expect(nextActionFor({ ...base, reasonCodes: ['45', '999'], balanceCents: 700 }).nextActionReason).toMatch(
      /No rule matches/,
    );
  });

  // The ruled order: write_off, correct_and_resubmit, appeal, bill_secondary, bill_patient, none.
  it.each<[string, Partial<NextActionInput>, string]>([
    ['write_off over correct_and_resubmit', { reasonCodes: ['16', '29'] }, 'write_off'],
    ['write_off over a line remark', { reasonCodes: ['119'], lineRemarkCodes: ['M20'] }, 'write_off'],
    ['correct_and_resubmit over appeal', { reasonCodes: ['50', '16'] }, 'correct_and_resubmit'],
    ['a line remark over appeal', { reasonCodes: ['50'], lineRemarkCodes: ['MA130'] }, 'correct_and_resubmit'],
    ['appeal over bill_secondary', { reasonCodes: ['197'], balanceCents: 900, hasSecondaryCoverage: true }, 'appeal'],
    [
      'bill_secondary over bill_patient',
      { patientResponsibilityCents: 900, balanceCents: 100, hasSecondaryCoverage: true },
      'bill_secondary',
    ],
    ['bill_patient over a duplicate (none)', { reasonCodes: ['18'], patientResponsibilityCents: 900 }, 'bill_patient'],
    ['appeal over a duplicate (none)', { reasonCodes: ['18', '50'] }, 'appeal'],
  ])('prefers %s', (_label, input, action) => {
    expect(actionOf(input)).toBe(action);
  });
});
