// Every CLP01 of an interchange must be a claim of the posting clinic (DECISIONS "Money in"): an 835 naming
// another clinic's claim, or one we never sent, posts nothing anywhere. The same message serves both cases, so
// the answer says nothing about other clinics' claims.
import type { Db, Prisma } from '../db';
import { AppError } from '../errors';
import type { Remittance } from '../x12/read-remittance';

const NAMED_IN_MESSAGE = 5;

/** @throws UNPROCESSABLE (422) naming (up to five of) the claim ids that are not the clinic's. */
export async function resolveClaims(
  db: Db | Prisma.TransactionClient,
  clinicId: string,
  remittances: readonly Remittance[],
): Promise<void> {
  const ids = [...new Set(remittances.flatMap((remittance) => remittance.claims.map((claim) => claim.claimId)))];
  const found = await db.claim.findMany({ where: { clinicId, id: { in: ids } }, select: { id: true } });
  const known = new Set(found.map((claim) => claim.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length === 0) return;
  const named = unknown
    .slice(0, NAMED_IN_MESSAGE)
    .map((id) => JSON.stringify(id))
    .join(', ');
  const more = unknown.length > NAMED_IN_MESSAGE ? ` and ${unknown.length - NAMED_IN_MESSAGE} more` : '';
  throw new AppError(
    'UNPROCESSABLE',
    found.length === 0
      ? `The 835 names no claim of this clinic (CLP01 ${named}${more}); nothing was posted`
      : `The 835 names claims that are not claims of this clinic (CLP01 ${named}${more}); nothing was posted`,
  );
}
