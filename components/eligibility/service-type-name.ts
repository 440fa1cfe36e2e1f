// X12 service type codes (EB03/EQ01, element 1365) as staff read them, with the code kept beside the words:
// "Mental health (MH)". The common ones a payer flags for prior authorization or network limits; any other
// code reads "Service type XX" rather than a guess.
const NAMES: Record<string, string> = {
  '1': 'Medical care',
  '2': 'Surgical',
  '3': 'Consultation',
  '4': 'Diagnostic X-ray',
  '5': 'Diagnostic lab',
  '6': 'Radiation therapy',
  '7': 'Anesthesia',
  '12': 'Durable medical equipment purchase',
  '18': 'Durable medical equipment rental',
  '30': 'Health benefit plan coverage',
  '33': 'Chiropractic',
  '35': 'Dental care',
  '42': 'Home health care',
  '45': 'Hospice',
  '47': 'Hospital',
  '48': 'Hospital inpatient',
  '50': 'Hospital outpatient',
  '51': 'Hospital emergency (accident)',
  '52': 'Hospital emergency (medical)',
  '53': 'Hospital ambulatory surgical',
  '62': 'MRI/CAT scan',
  '69': 'Maternity',
  '73': 'Diagnostic medical',
  '76': 'Dialysis',
  '78': 'Chemotherapy',
  '81': 'Routine physical',
  '86': 'Emergency services',
  '88': 'Pharmacy',
  '93': 'Podiatry',
  '98': 'Professional (physician) visit, office',
  A4: 'Psychiatric',
  A6: 'Psychotherapy',
  A7: 'Psychiatric inpatient',
  A8: 'Psychiatric outpatient',
  AD: 'Occupational therapy',
  AE: 'Physical medicine',
  AF: 'Speech therapy',
  AG: 'Skilled nursing care',
  AI: 'Substance abuse',
  AL: 'Vision (optometry)',
  BY: 'Physician visit, office: sick',
  BZ: 'Physician visit, office: well',
  MH: 'Mental health',
  PT: 'Physical therapy',
  UC: 'Urgent care',
};

/** "Mental health (MH)"; a procedure or unlisted code: "Service type 99999" / "Code 99213". */
export function serviceTypeName(code: string): string {
  const name = NAMES[code];
  if (name) return `${name} (${code})`;
  // Prior authorization lists may carry procedure codes (EB13) beside service types.
  return /^[A-Z0-9]{5}$/.test(code) ? `Procedure ${code}` : `Service type ${code}`;
}

/** A list in words: "Mental health (MH) and Psychotherapy (A6)". */
export function serviceTypeList(codes: readonly string[]): string {
  const names = codes.map(serviceTypeName);
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
