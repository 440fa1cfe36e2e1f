// A sentence for the UI from whatever a call threw, in plain words for front-desk staff: a refusal for lack of
// a scope reads "Your role can't do this; ask your clinic admin", a form error a sentence per field
// (describeIssue: "Enter the date of birth as on the card."), and otherwise the server's message (after a
// 429, with when to try again). A cancelled passkey prompt is said in words, and a call that got no answer
// (network lost, stream cut) gets the screen's own sentence; a sentence a screen wrote itself is said as it is.
// The correlation id is kept apart (`reference`) so a screen shows it small, for support: ErrorNote is the one
// place screens show either.
import { ApiError } from './api-error';
import { isStepUpCancelled } from './step-up-prompt';

type DescribeOptions = {
  /** Said when the call got no answer from the server; default: the error's own message. */
  otherwise?: string | undefined;
};

/** The sentence and, for an answer from our server, the reference id support can look up. */
type ErrorDescription = { text: string; reference?: string };

const ROLE_REFUSAL = "Your role can't do this; ask your clinic admin.";

/** The sentence for what a call threw (empty for a cancelled step-up), and the reference of our server's answer. */
export function describeApiError(error: unknown, options: DescribeOptions = {}): ErrorDescription {
  // Cancelling the step-up dialog is not an error: nothing to say (screens show nothing for an empty text).
  if (isStepUpCancelled(error)) return { text: '' };
  // A sentence the screen wrote itself ("Say why the claim is voided."), kept in the same state as a failure.
  if (typeof error === 'string') return { text: error };
  const described: ErrorDescription = { text: sentenceFor(error, options) };
  if (error instanceof ApiError && error.body.correlationId) described.reference = error.body.correlationId;
  return described;
}

function sentenceFor(error: unknown, options: DescribeOptions): string {
  if (error instanceof ApiError) {
    switch (error.code) {
      case 'SCOPE_MISSING':
        return ROLE_REFUSAL;
      case 'VALIDATION_FAILED':
        // Each field's sentence; a screen that marks its fields shows these beside them instead.
        return error.body.issues?.length
          ? error.body.issues.map((issue) => describeIssue(issue.path, issue.message)).join(' ')
          : sentence(error.message);
      case 'UNAUTHENTICATED':
        return 'You are signed out. Sign in again to continue.';
      case 'INTERNAL_ERROR':
        return 'Something went wrong on our side. Try again; if it keeps happening, contact support with the reference.';
      case 'TRANSPORT_FAILED':
        return 'The payer could not be reached. Try again in a few minutes, or confirm coverage by phone.';
      default:
        break;
    }
    let text = sentence(error.message);
    if (error.status === 429 && error.retryAfterSeconds) {
      const minutes = Math.ceil(error.retryAfterSeconds / 60);
      text = `${text.replace(/\.$/, '')} (about ${minutes} minute${minutes === 1 ? '' : 's'}).`;
    }
    return text;
  }
  if (error instanceof Error && error.name === 'NotAllowedError')
    return 'The passkey prompt was cancelled or timed out.';
  if (options.otherwise) return options.otherwise;
  return error instanceof Error ? error.message : 'Something went wrong.';
}

/** A message as a sentence: a capital first letter and a full stop. */
function sentence(message: string): string {
  const trimmed = message.trim();
  if (!trimmed) return 'Something went wrong.';
  const capital = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

// Sentences for the fields staff type, by the API's issue path (with or without its "body."/"query." part).
// A field not listed keeps the API's message, as a sentence.
const FIELD_SENTENCES: Record<string, { missing: string; invalid?: string }> = {
  patientId: { missing: 'Pick the patient (from an appointment or the patient search).' },
  firstName: {
    missing: 'Enter the first name as on the card.',
    invalid: 'Enter the first name as on the card, without * ^ : or ~ (at most 35 letters).',
  },
  lastName: {
    missing: 'Enter the last name as on the card.',
    invalid: 'Enter the last name as on the card, without * ^ : or ~ (at most 60 letters).',
  },
  dob: { missing: 'Enter the date of birth as on the card.' },
  birthDate: { missing: 'Enter the date of birth as on the card.' },
  memberId: {
    missing: 'Enter the member id as on the card.',
    invalid: 'Enter the member id as on the card: 2 to 80 letters, digits, spaces, dots, slashes or dashes.',
  },
  payerName: {
    missing: 'Choose the payer.',
    invalid: 'This payer is not in the list: choose another payer, or enter its payer id.',
  },
  payerId: { missing: 'Enter the payer id.', invalid: 'Enter the payer id: 2 to 80 letters or digits.' },
  npi: { missing: 'Enter the 10-digit NPI of the provider.', invalid: 'Enter the NPI: 10 digits.' },
  dos: { missing: 'Enter the date of service, or leave it empty for today.' },
  serviceType: { missing: 'Choose the service type.' },
  groupNumber: { missing: 'Enter the group number as on the card, or leave it empty.' },
};

/** The field name of an issue path: "body.provider.npi" → "npi", "query.birthDate" → "birthDate". */
export function issueField(path: string): string {
  return (
    path
      .replace(/^(body|query|params)\./, '')
      .split('.')
      .at(-1) ?? path
  );
}

/** A sentence for one field issue, to show next to the field. */
export function describeIssue(path: string, message: string): string {
  const known = FIELD_SENTENCES[issueField(path)];
  if (!known) return sentence(message);
  const missing = /required|must be a date|must be YYYY-MM-DD|is required/i.test(message);
  return missing || !known.invalid ? known.missing : known.invalid;
}
