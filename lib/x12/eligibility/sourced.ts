// Evidence for every value readEligibility reports: each field reader returns its value with the verbatim
// segments it came from, and readEligibility alone writes them into the evidence record, in one fixed order.

/** A field's value and its source segments' raw text; no sources when the field got no value from the 271. */
export type Sourced<T> = { value: T; sources: string[] };
