// A fresh PostgreSQL database per test file on the local server, migrated from the checked-in migration files
// (scripts/migrate.test.ts proves the wasm engine applies the same files). Refuses any non-local host.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

function assertLocal(url: string) {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host))
    throw new Error(`tests run only against a local PostgreSQL, not ${host}`);
}

export function migrationSql(): string[] {
  const dir = path.resolve('prisma/migrations');
  return fs
    .readdirSync(dir)
    .filter((d) => fs.statSync(path.join(dir, d)).isDirectory())
    .sort()
    .map((d) => fs.readFileSync(path.join(dir, d, 'migration.sql'), 'utf8'));
}

export type TestDatabase = { url: string; name: string; drop(): Promise<void> };

export async function createTestDatabase(): Promise<TestDatabase> {
  const database = await createEmptyDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  for (const sql of migrationSql()) await client.query(sql);
  await client.end();
  return database;
}

/** A fresh database with nothing in it, for what must migrate it itself (`npm start`, the migration engine). */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  assertLocal(ADMIN_URL);
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
