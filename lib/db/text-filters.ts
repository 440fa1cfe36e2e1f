// Case-insensitive text filters for Prisma on PostgreSQL. Prisma turns `mode: 'insensitive'` into ILIKE, for
// `equals` as for `contains` (prisma/orm#10810, #20318), and escapes nothing: a `%` or `_` in the value would
// match any text, so an EHR's member id "A%" or a search for "_" would widen the query. Every case-insensitive
// filter goes through here. Backslash is PostgreSQL's default LIKE escape, so it is escaped too.
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** The whole text, ignoring case (ILIKE 'text', wildcards escaped). */
export function equalsIgnoringCase(text: string): { equals: string; mode: 'insensitive' } {
  return { equals: likeLiteral(text), mode: 'insensitive' };
}

/** Text containing this, ignoring case (ILIKE '%text%', wildcards escaped). */
export function containsIgnoringCase(text: string): { contains: string; mode: 'insensitive' } {
  return { contains: likeLiteral(text), mode: 'insensitive' };
}
