// Fits a name into an X12 name element: NM103 (last or organisation name) holds at most 60 characters and NM104
// (first name) at most 35 (005010 data elements 1035 and 1036). It does not reject delimiters: the builders do.

/** Maximum lengths of the NM1 name elements (X12.6 AN 1-60 and 1-35). */
export const NAME_LAST_OR_ORGANIZATION_MAX = 60;
export const NAME_FIRST_MAX = 35;

/**
 * The value without surrounding spaces, cut to maxLength and trimmed again: a cut that lands after a space must
 * not leave a trailing space in the element (X12.6: trailing spaces in an AN value are suppressed).
 */
export function fitName(value: string, maxLength: number): string {
  return value.trim().slice(0, maxLength).trimEnd();
}
