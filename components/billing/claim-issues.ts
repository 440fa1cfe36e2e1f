// Where an API issue belongs on the claim editor. The route's validation answers `body.lines.0.units`, the
// scrubber `lines.0.units` (the claim body's terms): both land next to the same field. Paths with no field on
// the form (the billing provider, the patient's demographics, the coverage on file) are listed above the form.
export type IssueMap = Record<string, string[]>;
export type ApiIssue = { path: string; message: string; edit?: string };

const LINE_FIELDS = ['procedureCode', 'modifiers', 'diagnosisPointers', 'units', 'chargeCents', 'serviceDate'];
const CLAIM_FIELDS = ['patientId', 'serviceDate', 'placeOfService', 'renderingNpi', 'diagnoses', 'lines'];

/** The form field a path names ("lines.1.modifiers.0" → "lines.1.modifiers"), or null for "not on this form". */
export function fieldOfPath(rawPath: string): string | null {
  const path = rawPath
    .replace(/^body\./, '')
    .replace(/^claim\./, '')
    .replace(/\[(\d+)\]/g, '.$1');
  const parts = path.split('.');
  if (parts[0] === 'renderingProvider') return 'renderingNpi';
  if (parts[0] === 'diagnoses' && parts.length >= 2 && /^\d+$/.test(parts[1]!)) return `diagnoses.${parts[1]}`;
  if (parts[0] === 'lines' && parts.length >= 3 && /^\d+$/.test(parts[1]!) && LINE_FIELDS.includes(parts[2]!))
    return `lines.${parts[1]}.${parts[2]}`;
  if (parts.length === 1 && CLAIM_FIELDS.includes(parts[0]!)) return parts[0]!;
  if (parts[0] === 'lines' && parts.length === 2) return 'lines';
  return null;
}

/** Words for the paths that have no field here, so staff know where to fix them. */
const ELSEWHERE: [RegExp, string][] = [
  [/^coverage$/, "Eligibility: ask the front desk to check the patient's coverage on file today"],
  [/^(payer|subscriber)\./, "The patient's coverage on file"],
  [/^patient\./, "The patient's record"],
  [/^billingProvider\./, "The clinic's billing provider settings"],
  [/^totalCharge/, 'The claim total'],
];

export function whereToFix(rawPath: string): string {
  const path = rawPath.replace(/^body\./, '');
  for (const [pattern, words] of ELSEWHERE) if (pattern.test(path)) return words;
  return path;
}

export function groupIssues(issues: readonly ApiIssue[]): { byField: IssueMap; elsewhere: ApiIssue[] } {
  const byField: IssueMap = {};
  const elsewhere: ApiIssue[] = [];
  for (const issue of issues) {
    const field = fieldOfPath(issue.path);
    if (field === null) {
      elsewhere.push(issue);
      continue;
    }
    const list = (byField[field] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return { byField, elsewhere };
}
