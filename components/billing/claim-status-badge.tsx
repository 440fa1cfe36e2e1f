// A claim's state in words, coloured by what it asks of staff (rejected/denied red, paid green).
import { claimStatusWords } from './words';

export function ClaimStatusBadge({ status }: { status: string }) {
  return (
    <span className="billing-status" data-status={status}>
      {claimStatusWords(status)}
    </span>
  );
}
