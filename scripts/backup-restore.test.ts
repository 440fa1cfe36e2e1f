// The backup and restore steps of docs/operations.md, run once for real with Debian's PostgreSQL client: pg_dump in
// the custom format from the server's own address (DATABASE_DIRECT_URL, never through PgBouncer), pg_restore into a
// new empty database, and the restored database holds every row, the migration history and the ledger's deferred
// balance check, so the app can run on it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDb } from '@/lib/db';
import { applyMigrations } from './schema-engine.mjs';
import { createPatient, createTenant, createUser } from '../test/support/factories';
import { createEmptyDatabase } from '../test/support/postgres';

function binary(name: string): string {
  const root = '/usr/lib/postgresql';
  const version = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a))[0]!;
  return path.join(root, version, 'bin', name);
}

/** Row count of every table of the public schema, by name. */
async function tableCounts(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables.rows) {
      counts[name] = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`)).rows[0]!.n;
    }
    return counts;
  } finally {
    await client.end();
  }
}

describe('backup and restore (docs/operations.md)', () => {
  it('pg_dump -Fc and pg_restore into an empty database give back every row, the migrations and the checks', async () => {
    const source = await createEmptyDatabase();
    const target = await createEmptyDatabase();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-'));
    try {
      // The database as `npm start` leaves it: migrated by the wasm engine (with its history), then some data.
      await applyMigrations(source.url);
      const db = await openDb({ kind: 'postgres', url: source.url });
      const tenant = await createTenant(db, 'Backup');
      await createUser(db, tenant, { scopes: ['claims:read'] });
      for (let i = 0; i < 3; i++) await createPatient(db, tenant);
      const patients = await db.patient.findMany({ orderBy: { id: 'asc' } });
      await db.$disconnect();

      const dump = path.join(dir, 'backup.dump');
      execFileSync(binary('pg_dump'), ['--format=custom', '--no-owner', `--file=${dump}`, source.url]);
      execFileSync(binary('pg_restore'), ['--no-owner', '--exit-on-error', `--dbname=${target.url}`, dump]);

      expect(await tableCounts(target.url)).toEqual(await tableCounts(source.url));
      const restored = await openDb({ kind: 'postgres', url: target.url });
      try {
        expect(await restored.patient.findMany({ orderBy: { id: 'asc' } })).toEqual(patients);
        // The migration history came along: a deploy on the restored database has nothing to apply.
        expect((await applyMigrations(target.url)).appliedMigrationNames).toEqual([]);
        // The triggers came along too (the ledger's deferred balance check among them).
        const triggers = await restored.$queryRawUnsafe<Array<{ n: number }>>(
          `SELECT count(*)::int AS n FROM pg_trigger WHERE NOT tgisinternal`,
        );
        const sourceClient = new pg.Client({ connectionString: source.url });
        await sourceClient.connect();
        const sourceTriggers = await sourceClient.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_trigger WHERE NOT tgisinternal`,
        );
        await sourceClient.end();
        expect(triggers[0]!.n).toBe(sourceTriggers.rows[0]!.n);
        expect(triggers[0]!.n).toBeGreaterThan(0);
      } finally {
        await restored.$disconnect();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await source.drop();
      await target.drop();
    }
  }, 120_000);
});
