// The migrations folder is the truth the databases are built from: it must match schema.prisma exactly, and the
// wasm engine must apply it (as `prisma migrate deploy` would) on both database kinds with a clean history.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { applyMigrations, diffMigrationsToSchema, migrationStatus } from './schema-engine.mjs';
import { migrationTarget } from './migrate.mjs';
import { createTestDatabase } from '../test/support/postgres';
import { until } from '../test/support/until';

describe('migrations', () => {
  it('match schema.prisma: the engine finds nothing to add', async () => {
    expect(await diffMigrationsToSchema()).toBe('');
  }, 60_000);

  it('apply to a PGlite folder and record a clean history; a second deploy applies nothing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-'));
    try {
      const first = await applyMigrations(path.join(dir, 'db'));
      const names = fs
        .readdirSync('prisma/migrations')
        .filter((n) => fs.statSync(path.join('prisma/migrations', n)).isDirectory())
        .sort();
      expect(first.appliedMigrationNames).toEqual(names);
      expect((await applyMigrations(path.join(dir, 'db'))).appliedMigrationNames).toEqual([]);
      const status = await migrationStatus(path.join(dir, 'db'));
      expect(status).toMatchObject({
        failedMigrationNames: [],
        editedMigrationNames: [],
        history: null,
        hasMigrationsTable: true,
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('apply to PostgreSQL, recorded in _prisma_migrations with checksums, and the ledger trigger refuses an unbalanced posting', async () => {
    const database = await createTestDatabase(); // already migrated from the files: start from an empty one
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
      const { appliedMigrationNames } = await applyMigrations(database.url);
      expect(appliedMigrationNames.length).toBeGreaterThan(0);
      const rows = await client.query(
        'SELECT migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY migration_name',
      );
      expect(rows.rows.map((r) => r.migration_name)).toEqual(appliedMigrationNames);
      for (const row of rows.rows) {
        expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
        expect(row.finished_at).not.toBeNull();
      }
      await expect(
        client.query(`BEGIN;
        INSERT INTO "LedgerTransaction"(id, "clinicId", kind, reference, "correlationId") VALUES ('t1','c','test','r','x');
        INSERT INTO "LedgerEntry"(id, "transactionId", account, "amountCents") VALUES ('e1','t1','assets:cash',100);
        COMMIT;`),
      ).rejects.toThrow(/unbalanced by 100 cents/);
      await client.query('ROLLBACK');
      await client.query(`BEGIN;
        INSERT INTO "LedgerTransaction"(id, "clinicId", kind, reference, "correlationId") VALUES ('t2','c','test','r','x');
        INSERT INTO "LedgerEntry"(id, "transactionId", account, "amountCents") VALUES ('e2','t2','assets:cash',100), ('e3','t2','assets:patient-receivable',-100);
        COMMIT;`);
      expect((await client.query('SELECT count(*)::int AS n FROM "LedgerEntry"')).rows[0].n).toBe(2);
      // Deleting one side, or moving it to another transaction, would unbalance both: refused at commit.
      await expect(client.query(`BEGIN; DELETE FROM "LedgerEntry" WHERE id = 'e3'; COMMIT;`)).rejects.toThrow(
        /t2 is unbalanced by 100 cents/,
      );
      await client.query('ROLLBACK');
      await client.query(
        `INSERT INTO "LedgerTransaction"(id, "clinicId", kind, reference, "correlationId") VALUES ('t3','c','test','r','x')`,
      );
      await expect(
        client.query(`BEGIN; UPDATE "LedgerEntry" SET "transactionId" = 't3' WHERE id = 'e3'; COMMIT;`),
      ).rejects.toThrow(/unbalanced by/);
      await client.query('ROLLBACK');
      expect((await client.query('SELECT count(*)::int AS n FROM "LedgerEntry"')).rows[0].n).toBe(2);
    } finally {
      await client.end();
      await database.drop();
    }
  }, 120_000);

  it('three instances migrating one fresh PostgreSQL at once all succeed, once, and leave no advisory lock held', async () => {
    const database = await createTestDatabase();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
      const results = await Promise.all([1, 2, 3].map(() => applyMigrations(database.url)));
      const applied = results.map((r) => r.appliedMigrationNames.length);
      // One applied everything; the others waited their turn and found nothing left to do.
      expect(applied.filter((n) => n > 0)).toHaveLength(1);
      expect(applied.filter((n) => n === 0)).toHaveLength(2);
      // The engine's connections were closed: nobody still holds Prisma's (or our) migration lock. A closed
      // connection's backend exits a moment after the client lets go (a clean-clone CI run once counted its lock
      // still there), so wait up to 10 s for the other sessions to end before counting.
      await until(
        async () =>
          (
            await client.query(
              'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
            )
          ).rows[0].n,
        (others) => others === 0,
        10_000,
        100,
      );
      const locks =
        await client.query(`SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
        WHERE l.locktype = 'advisory' AND d.datname = current_database()`);
      expect(locks.rows[0].n).toBe(0);
      const sessions = await client.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      expect(sessions.rows[0].n).toBe(0);
    } finally {
      await client.end();
      await database.drop();
    }
  }, 120_000);

  it('go to DATABASE_DIRECT_URL when it is set: the migration lock is a session lock, which PgBouncer would not keep', () => {
    const pooled = 'postgresql://app@pgbouncer:6432/db';
    const direct = 'postgresql://app@db:5432/db';
    expect(migrationTarget({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct })).toBe(direct);
    expect(migrationTarget({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: ' ' })).toBe(pooled);
    expect(migrationTarget({ DATABASE_URL: direct })).toBe(direct);
  });
});
