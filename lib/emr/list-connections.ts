// GET /api/emr-sync/connections: the clinic's EMR connections, newest first (at most 100).
import { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db';
import { EmrConnectionView, toConnectionView } from './connection-view';

export const ConnectionList = z.object({ connections: z.array(EmrConnectionView) });

export async function listConnections(
  deps: { db: Db; config: Config },
  input: { clinicId: string },
): Promise<z.infer<typeof ConnectionList>> {
  const rows = await deps.db.emrConnection.findMany({
    where: { clinicId: input.clinicId },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: 100,
  });
  return { connections: rows.map((row) => toConnectionView(row, deps.config)) };
}
