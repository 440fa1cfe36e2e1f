// GET /api/emr-sync/connections: the clinic's EMR connections, newest first (at most 100), each with its latest pull.
import { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db';
import { EmrConnectionView, findLastRuns, toConnectionView } from './connection-view';

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
  const lastRuns = await findLastRuns(
    deps.db,
    input.clinicId,
    rows.map((row) => row.id),
  );
  return { connections: rows.map((row) => toConnectionView(row, deps.config, lastRuns.get(row.id) ?? null)) };
}
