// GET /api/auth/webauthn/credentials: the caller's own passkeys, without key material or signature counters.
import { z } from 'zod';
import type { Db } from '../db';
import { Passkey } from './webauthn-schemas';

export const PasskeyList = z.object({ passkeys: z.array(Passkey) });

export async function listPasskeys(deps: { db: Db }, input: { userId: string }): Promise<z.infer<typeof PasskeyList>> {
  const rows = await deps.db.webAuthnCredential.findMany({
    where: { userId: input.userId },
    orderBy: { createdAt: 'asc' },
    select: {
      id: true,
      name: true,
      deviceType: true,
      backedUp: true,
      transports: true,
      createdAt: true,
      lastUsedAt: true,
    },
  });
  return {
    passkeys: rows.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    })),
  };
}
