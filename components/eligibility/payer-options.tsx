// The payer directory as a select's options: "Choose the payer…" (not a choice), each listed payer by name and id,
// and the choice of a payer it does not list (OTHER_PAYER), after which the form asks for what the list lacks.
import { PAYER_DIRECTORY } from '@/lib/eligibility/payer-directory';

export const OTHER_PAYER = '__other';

/** `other`: what the last choice says the form will ask for ("enter its payer id"). */
export function PayerOptions({ other }: { other: string }) {
  return (
    <>
      <option value="" disabled>
        Choose the payer…
      </option>
      {PAYER_DIRECTORY.map((p) => (
        <option key={p.payerId} value={p.payerId}>
          {p.name} ({p.payerId})
        </option>
      ))}
      <option value={OTHER_PAYER}>Another payer ({other})</option>
    </>
  );
}
