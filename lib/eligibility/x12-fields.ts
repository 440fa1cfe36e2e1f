// zod schemas for values that travel inside a 270, shared by the verify and roster bodies (and the screens'
// forms): a value that would break the X12 envelope is a 400 with its field path, never a 500 later.
import { z } from 'zod';
import { SERVICE_TYPE_CODES } from './service-type-codes';

// Printable ASCII without the delimiters we write (* ^ : ~): what a payer's 270 reader accepts.
const X12_TEXT = /^[\x20-\x29\x2B-\x39\x3B-\x5D\x5F-\x7D]*$/;

/**
 * Free text inside a 270 element: trimmed, 1..max characters, no X12 delimiters. A longer value is refused with
 * the field's message, never cut to fit (NM103 last name 60, NM104 first name 35, as 005010X279A1 sizes them).
 */
export const x12Text = (field: string, max: number) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, { error: `${field} is required` })
    .max(max, { error: `${field} must be at most ${max} characters` })
    .regex(X12_TEXT, {
      error: `${field} may hold only plain letters, digits, spaces and punctuation other than * ^ : ~`,
    });

/** The subscriber's member id (2100C NM109, an X12 identifier of 2 to 80 characters). */
export const MemberId = z
  .string({ error: 'memberId is required' })
  .trim()
  .min(1, { error: 'memberId is required', abort: true })
  .min(2, { error: 'memberId must be 2 to 80 characters', abort: true })
  .max(80, { error: 'memberId must be 2 to 80 characters' })
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._/-]*$/, { error: 'memberId may hold only letters, digits, spaces, . _ / and -' });

/** A payer network id as clearinghouses publish them (NM109 of 2100A). */
export const PayerId = z
  .string({ error: (issue) => (issue.input === undefined ? 'payerId is required' : 'payerId must be a string') })
  .trim()
  .min(2, { error: 'payerId must be 2 to 80 letters or digits' })
  .max(80, { error: 'payerId must be 2 to 80 letters or digits' })
  .regex(/^[A-Za-z0-9]+$/, { error: 'payerId must be 2 to 80 letters or digits' });

export const Npi = z.string({ error: 'npi is required' }).regex(/^\d{10}$/, { error: 'npi must be 10 digits' });

/** X12 service type code (EQ01): one of 5010's list (service-type-codes.ts), e.g. 30, 1, 5, AL. */
export const ServiceTypeCode = z
  .string({ error: 'serviceType must be a string' })
  .refine((code) => SERVICE_TYPE_CODES.has(code), {
    error: 'serviceType must be an X12 service type code such as 30, 1, 5 or AL',
  });

export const IsoDate = (field: string) => z.iso.date({ error: `${field} must be a date YYYY-MM-DD` });
