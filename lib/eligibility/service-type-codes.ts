// The X12 service type codes a 270 may ask about (EQ01) and a 271 answers with (EB03): data element 1365 as
// ASC X12N 005010X279A1 lists it. Data only, browser-safe (the verify screen's form shares it). Codes outside
// this list are refused at the door: a payer answers an unknown EQ01 with an AAA or a 999, never with coverage.
// Source: 005010X279A1, 2110C EQ01 / 2110C EB03 code list (element 1365). The list has gaps on purpose:
// 29, 31, AP and BO are not codes in 5010.

const NUMERIC = Array.from({ length: 99 }, (_, i) => String(i + 1)).filter((code) => code !== '29' && code !== '31');

const LETTERS = [
  'A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8', 'A9',
  'AA', 'AB', 'AC', 'AD', 'AE', 'AF', 'AG', 'AH', 'AI', 'AJ', 'AK', 'AL',
  'AM', 'AN', 'AO', 'AQ', 'AR',
  'B1', 'B2', 'B3',
  'BA', 'BB', 'BC', 'BD', 'BE', 'BF', 'BG', 'BH', 'BI', 'BJ', 'BK', 'BL', 'BM', 'BN',
  'BP', 'BQ', 'BR', 'BS', 'BT', 'BU', 'BV', 'BW', 'BX', 'BY', 'BZ',
  'C1',
  'CA', 'CB', 'CC', 'CD', 'CE', 'CF', 'CG', 'CH', 'CI', 'CJ', 'CK', 'CL', 'CM', 'CN', 'CO', 'CP', 'CQ',
  'DG', 'DM', 'DS', 'GF', 'GN', 'GY', 'IC', 'MH', 'NI', 'ON', 'PT', 'PU', 'RN', 'RT', 'TC', 'TN', 'UC',
];

/** Every 5010 service type code (187 of them), numeric ones without leading zeros ("1", not "01"). */
export const SERVICE_TYPE_CODES: ReadonlySet<string> = new Set([...NUMERIC, ...LETTERS]);
