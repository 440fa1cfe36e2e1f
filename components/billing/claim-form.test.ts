import { describe, expect, it } from 'vitest';
import { buildBody, emptyLine, issueAt, linesFrom, type ClaimForm, type LineForm } from './claim-form';

const line = (typed: Partial<LineForm>): LineForm => ({ ...emptyLine(), ...typed });
const form = (typed: Partial<ClaimForm> = {}): ClaimForm => ({
  patientId: 'pat_1',
  serviceDate: '2026-11-27',
  placeOfService: '11',
  renderingNpi: '',
  diagnoses: ['j06.9'],
  lines: [line({ procedureCode: ' 99213 ', charge: '125.50' })],
  ...typed,
});

describe('the claim form as an API body', () => {
  it('sends typed dollars as integer cents and codes as the claim writes them', () => {
    const { body, problems } = buildBody(
      form({
        diagnoses: [' j06.9 ', 'r05.9'],
        lines: [
          line({ procedureCode: ' 99213 ', modifiers: '25, mod', pointers: '1 2', units: '2', charge: '$1,250.05' }),
          line({ procedureCode: '87880', charge: '0.29', serviceDate: '2026-11-26' }),
        ],
      }),
    );
    expect(problems).toEqual({});
    expect(body).toEqual({
      patientId: 'pat_1',
      serviceDate: '2026-11-27',
      placeOfService: '11',
      diagnoses: ['J06.9', 'R05.9'],
      lines: [
        { procedureCode: '99213', modifiers: ['25', 'MOD'], diagnosisPointers: [1, 2], units: 2, chargeCents: 125_005 },
        { procedureCode: '87880', diagnosisPointers: [1], units: 1, chargeCents: 29, serviceDate: '2026-11-26' },
      ],
    });
  });

  it("leaves the rendering NPI out when it is empty (the clinic's) and defaults the place of service to 11", () => {
    expect(buildBody(form({ placeOfService: ' ', renderingNpi: '  ' })).body).toMatchObject({ placeOfService: '11' });
    expect(buildBody(form({ renderingNpi: '' })).body).not.toHaveProperty('renderingNpi');
    expect(buildBody(form({ renderingNpi: ' 1234567893 ' })).body).toMatchObject({ renderingNpi: '1234567893' });
  });

  it('names each field the form can tell is wrong, in the API paths, and sends nothing', () => {
    const { body, problems } = buildBody(
      form({
        patientId: ' ',
        serviceDate: '',
        lines: [
          line({ units: '1.5', charge: '12.345', pointers: '1, a' }),
          line({ units: '0', charge: '0', pointers: ' ' }),
          line({ units: '3', charge: 'abc', pointers: '2' }),
        ],
      }),
    );
    expect(body).toBeNull();
    expect(Object.keys(problems).sort()).toEqual([
      'lines.0.chargeCents',
      'lines.0.diagnosisPointers',
      'lines.0.units',
      'lines.1.chargeCents',
      'lines.1.diagnosisPointers',
      'lines.1.units',
      'lines.2.chargeCents',
      'patientId',
      'serviceDate',
    ]);
    expect(problems['lines.0.chargeCents']).toEqual(['Enter the charge in dollars, such as 125.00.']);
  });
});

describe("a stored draft's lines on the form", () => {
  it('shows cents as dollars and lists as text, and reads back to the same lines', () => {
    const stored = [
      { procedureCode: '99213', modifiers: ['25'], diagnosisPointers: [1, 2], units: 1, chargeCents: 12_550 },
      { procedureCode: '87880', modifiers: [], diagnosisPointers: [2], units: 3, chargeCents: 3_000 },
    ];
    const lines = linesFrom({
      claimId: 'clm_1',
      patientId: 'pat_1',
      patientName: 'Avery North',
      patientBirthDate: '1980-01-02',
      serviceDate: '2026-11-27',
      placeOfService: '11',
      diagnoses: ['J06.9', 'R05.9'],
      renderingNpi: null,
      lines: stored.map((line, i) => ({
        ...line,
        position: i + 1,
        serviceDate: i === 1 ? '2026-11-26' : null,
        paidCents: 0,
      })),
    });
    expect(lines.map(({ key: _key, ...typed }) => typed)).toEqual([
      { procedureCode: '99213', modifiers: '25', pointers: '1, 2', units: '1', charge: '125.50', serviceDate: '' },
      { procedureCode: '87880', modifiers: '', pointers: '2', units: '3', charge: '30.00', serviceDate: '2026-11-26' },
    ]);
    expect(new Set(lines.map((l) => l.key)).size).toBe(2);
    // The way back: no modifiers is no list at all, and the second line keeps its own date.
    const { modifiers: _none, ...second } = stored[1]!;
    expect(buildBody(form({ lines })).body?.lines).toEqual([stored[0], { ...second, serviceDate: '2026-11-26' }]);
  });

  it('starts a new claim with one empty line', () => {
    expect(linesFrom().map(({ key: _key, ...typed }) => typed)).toEqual([
      { procedureCode: '', modifiers: '', pointers: '1', units: '1', charge: '', serviceDate: '' },
    ]);
  });
});

it('shows every message for a field as one text, and nothing for a field without one', () => {
  expect(issueAt({ 'lines.0.units': ['Too many.', 'Whole units.'] }, 'lines.0.units')).toBe('Too many. Whole units.');
  expect(issueAt({ 'lines.0.units': [] }, 'lines.0.units')).toBeUndefined();
  expect(issueAt({}, 'serviceDate')).toBeUndefined();
});
