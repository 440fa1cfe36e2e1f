// The claim editor's form as data: what a stored draft becomes on the form, and what the form becomes as the body
// of POST /api/claims or PATCH /api/claims/{id}, with the problems the form can tell by itself (in the API's paths,
// so they show beside the same fields the API's would). Charges are typed in dollars and sent as integer cents.
// No React here: the screen keeps the state, this says what it means.
import { centsToDollarInput, parseDollarInput } from './format';
import type { ClaimDetail } from '@/lib/claims/get-claim';
import type { IssueMap } from './claim-issues';

export const MAX_DIAGNOSES = 12;
export const MAX_LINES = 50;

/** What the editor starts from: a stored draft as GET /api/claims/{id} answers it. */
export type ClaimDraftView = Pick<
  ClaimDetail,
  | 'claimId'
  | 'patientId'
  | 'patientName'
  | 'patientBirthDate'
  | 'serviceDate'
  | 'placeOfService'
  | 'diagnoses'
  | 'renderingNpi'
  | 'lines'
>;

/** One service line as typed: every field the text in its box (`key` keeps React's rows apart). */
export type LineForm = {
  key: number;
  procedureCode: string;
  modifiers: string;
  pointers: string;
  units: string;
  charge: string;
  serviceDate: string;
};

export type ClaimForm = {
  patientId: string;
  serviceDate: string;
  placeOfService: string;
  renderingNpi: string;
  diagnoses: string[];
  lines: LineForm[];
};

// The place-of-service codes a clinic uses most (CMS Place of Service code set); any other two digits can be typed.
export const PLACES_OF_SERVICE: [string, string][] = [
  ['11', '11 · Office'],
  ['02', '02 · Telehealth (not in the home)'],
  ['10', "10 · Telehealth in the patient's home"],
  ['12', '12 · Home'],
  ['19', '19 · Off-campus outpatient hospital'],
  ['20', '20 · Urgent care facility'],
  ['22', '22 · On-campus outpatient hospital'],
  ['23', '23 · Emergency room (hospital)'],
  ['49', '49 · Independent clinic'],
  ['81', '81 · Independent laboratory'],
];

let nextKey = 1;
export const emptyLine = (): LineForm => ({
  key: nextKey++,
  procedureCode: '',
  modifiers: '',
  pointers: '1',
  units: '1',
  charge: '',
  serviceDate: '',
});

/** A draft's lines as the form shows them; one empty line for a new claim. */
export function linesFrom(draft?: ClaimDraftView): LineForm[] {
  if (!draft?.lines.length) return [emptyLine()];
  return draft.lines.map((line) => ({
    key: nextKey++,
    procedureCode: line.procedureCode,
    modifiers: line.modifiers.join(', '),
    pointers: line.diagnosisPointers.join(', '),
    units: String(line.units),
    charge: centsToDollarInput(line.chargeCents),
    serviceDate: line.serviceDate ?? '',
  }));
}

const splitList = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter(Boolean);

/** The API body from the form, or the fields the form itself can tell are wrong (in the API's paths). */
export function buildBody(form: ClaimForm): { body: Record<string, unknown> | null; problems: IssueMap } {
  const problems: IssueMap = {};
  const add = (path: string, message: string) => (problems[path] ??= []).push(message);
  if (!form.patientId.trim()) add('patientId', 'Choose the patient.');
  if (!form.serviceDate) add('serviceDate', 'Enter the date of service.');
  const lines = form.lines.map((line, i) => {
    const units = Number(line.units);
    if (!/^\d+$/.test(line.units.trim()) || units < 1) add(`lines.${i}.units`, 'Enter whole units, 1 or more.');
    const chargeCents = parseDollarInput(line.charge);
    if (chargeCents === null || chargeCents <= 0)
      add(`lines.${i}.chargeCents`, 'Enter the charge in dollars, such as 125.00.');
    const pointerParts = splitList(line.pointers);
    if (!pointerParts.length || pointerParts.some((p) => !/^\d+$/.test(p)))
      add(`lines.${i}.diagnosisPointers`, 'Enter the numbers of the diagnoses this line treats, such as 1 or 1, 2.');
    const modifiers = splitList(line.modifiers).map((m) => m.toUpperCase());
    return {
      procedureCode: line.procedureCode.trim().toUpperCase(),
      ...(modifiers.length ? { modifiers } : {}),
      diagnosisPointers: pointerParts.map(Number),
      units,
      chargeCents: chargeCents ?? 0,
      ...(line.serviceDate ? { serviceDate: line.serviceDate } : {}),
    };
  });
  if (Object.keys(problems).length) return { body: null, problems };
  return {
    body: {
      patientId: form.patientId.trim(),
      serviceDate: form.serviceDate,
      placeOfService: form.placeOfService.trim() || '11',
      diagnoses: form.diagnoses.map((d) => d.trim().toUpperCase()),
      lines,
      ...(form.renderingNpi.trim() ? { renderingNpi: form.renderingNpi.trim() } : {}),
    },
    problems,
  };
}

/** The problem shown beside a field: every message for its path, as one text. */
export const issueAt = (issues: IssueMap, field: string): string | undefined => issues[field]?.join(' ') || undefined;
