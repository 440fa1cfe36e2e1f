// A CDS Hooks 2.0 card and its parts, as zod (the response schema) and the one builder every service uses, so
// each card carries a fresh uuid, our source label and a summary shorter than the specification's 140 characters.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/** CDS Hooks 2.0: a card's summary is a "<140-character summary message". */
export const SUMMARY_MAX = 139;

export const CdsLink = z.object({
  label: z.string(),
  url: z.string(),
  type: z.enum(['absolute', 'smart']),
  appContext: z.string().optional(),
});
export const CdsSuggestion = z.object({
  label: z.string(),
  uuid: z.string(),
  isRecommended: z.boolean().optional(),
  actions: z.array(
    z.object({ type: z.enum(['create', 'update', 'delete']), description: z.string(), resource: z.unknown() }),
  ),
});
export const CdsCard = z.object({
  uuid: z.string(),
  summary: z.string().max(SUMMARY_MAX),
  detail: z.string().optional(),
  indicator: z.enum(['info', 'warning', 'critical']),
  source: z.object({ label: z.string(), url: z.string().optional(), topic: z.unknown().optional() }),
  suggestions: z.array(CdsSuggestion).optional(),
  selectionBehavior: z.enum(['at-most-one', 'any']).optional(),
  links: z.array(CdsLink).optional(),
});
export type CdsCard = z.infer<typeof CdsCard>;
export type CdsLink = z.infer<typeof CdsLink>;
export type CdsSuggestion = z.infer<typeof CdsSuggestion>;

export const CdsResponse = z.object({ cards: z.array(CdsCard) });
export type CdsResponse = z.infer<typeof CdsResponse>;

export const CARD_SOURCE_LABEL = 'Clinic Revenue Platform';

export function buildCard(card: Omit<CdsCard, 'uuid' | 'source'> & { sourceUrl?: string }): CdsCard {
  const { sourceUrl, summary, ...rest } = card;
  return {
    uuid: randomUUID(),
    summary: fitSummary(summary),
    source: { label: CARD_SOURCE_LABEL, ...(sourceUrl && { url: sourceUrl }) },
    ...rest,
  };
}

/** The summary within SUMMARY_MAX, cut with an ellipsis, never inside a surrogate pair (an EHR would show a �). */
function fitSummary(summary: string): string {
  if (summary.length <= SUMMARY_MAX) return summary;
  const cut = summary.slice(0, SUMMARY_MAX - 1);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/** Whole dollars and cents as clinicians read them: 2500 → "$25.00". Integer arithmetic, no float. */
export function dollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${whole}.${String(abs % 100).padStart(2, '0')}`;
}
