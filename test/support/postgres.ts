// A fresh PostgreSQL database per test file on the local server, migrated from the checked-in migration files
// (scripts/migrate.test.ts proves the wasm engine applies the same files). Refuses any non-local host.
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';

export const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

function assertLocal(url: string) {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host))
    throw new Error(`tests run only against a local PostgreSQL, not ${host}`);
}

/** The advisory lock (on the admin database) under which the migrated template is built. */
const TEMPLATE_LOCK = 7_262_026;

export function migrationSql(): string[] {
  const dir = path.resolve('prisma/migrations');
  return fs
    .readdirSync(dir)
    .filter((d) => fs.statSync(path.join(dir, d)).isDirectory())
    .sort()
    .map((d) => fs.readFileSync(path.join(dir, d, 'migration.sql'), 'utf8'));
}

/** The address of database `name` on the admin URL's server. */
function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export type TestDatabase = { url: string; name: string; drop(): Promise<void> };

/** A fresh database holding every migration: a copy of the suite's migrated template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  return createEmptyDatabase(await migratedTemplate());
}

let template: Promise<string> | undefined;

/**
 * The migrations applied once into a template database named by their hash, which each test database copies
 * (CREATE DATABASE … TEMPLATE) instead of replaying them all: 0.8 s a test file on a slow machine, 0.3 s copied.
 * Built under an advisory lock, so of the workers (and suites) starting together one builds it and the others wait
 * and find it; built under another name and renamed when complete, so a half-built template is never copied.
 * Nothing connects to a template once it exists, which is what CREATE DATABASE … TEMPLATE requires.
 */
function migratedTemplate(): Promise<string> {
  assertLocal(ADMIN_URL); // before anything connects there
  template ??= (async () => {
    const migrations = migrationSql();
    const name = `tmpl_${createHash('sha256').update(migrations.join('\0')).digest('hex').slice(0, 16)}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    try {
      await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) {
        const building = `${name}_building`;
        await admin.query(`DROP DATABASE IF EXISTS "${building}"`);
        await admin.query(`CREATE DATABASE "${building}"`);
        const client = new pg.Client({ connectionString: databaseUrl(building) });
        await client.connect();
        for (const sql of migrations) await client.query(sql);
        await client.end();
        await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      }
    } finally {
      await admin.end(); // ends the session, and with it the advisory lock
    }
    return name;
  })();
  template.catch(() => (template = undefined));
  return template;
}

/**
 * A fresh database with nothing in it, for what must migrate it itself (`npm start`, the migration engine), or a
 * copy of `template`.
 */
export async function createEmptyDatabase(template?: string): Promise<TestDatabase> {
  assertLocal(ADMIN_URL);
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  await admin.end();
  return {
    url: databaseUrl(name),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
