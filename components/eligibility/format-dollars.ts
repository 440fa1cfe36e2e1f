// Cents from the API shown as dollars for staff ("$1,500.00"); null (the payer sent nothing, or "no limit")
// shows as a dash. The cents-to-decimal step is lib/money's, never a float division.
import { formatCentsAsDecimal } from '@/lib/money/cents';

export function formatDollars(amountCents: number | null | undefined): string {
  if (amountCents === null || amountCents === undefined) return '—';
  const decimal = formatCentsAsDecimal(amountCents);
  const negative = decimal.startsWith('-');
  const [whole, fraction] = (negative ? decimal.slice(1) : decimal).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}$${grouped}.${fraction}`;
}
