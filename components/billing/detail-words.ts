// A timeline event's detail (free-form JSON the claims API stores) as one line staff can read: its text
// fields in order, "camelCase" keys as words, amounts in cents as dollars, nested objects left out.
import { formatDollars } from './format';

export function detailWords(detail: unknown): string {
  if (detail === null || detail === undefined) return '';
  if (typeof detail === 'string' || typeof detail === 'number') return String(detail);
  if (typeof detail !== 'object' || Array.isArray(detail)) return '';
  return Object.entries(detail as Record<string, unknown>)
    .filter(([, value]) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    .map(([key, value]) => {
      if (typeof value === 'number' && key.endsWith('Cents'))
        return `${keyWords(key.slice(0, -5))}: ${formatDollars(value)}`;
      return `${keyWords(key)}: ${value === true ? 'yes' : value === false ? 'no' : String(value)}`;
    })
    .join(' · ');
}

function keyWords(key: string): string {
  const spaced = key.replace(/([a-z])([A-Z])/g, '$1 $2').replaceAll('_', ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1).toLowerCase();
}
