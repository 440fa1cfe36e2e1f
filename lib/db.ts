// The Prisma client for the configured database: PostgreSQL through @prisma/adapter-pg when DATABASE_URL is
// set, otherwise embedded PGlite in PGLITE_DATA_DIR. One client per process (PGlite is one connection; a
// data dir must never be opened by two processes, so the server owns it).
import fs from 'node:fs';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from './db/generated/client';
import type { Config } from './config';

export type Db = PrismaClient;
export type { Prisma } from './db/generated/client';

const globalForDb = globalThis as unknown as { __db?: Promise<PrismaClient> };

// The embedded database behind a client, for the one other user of the same single connection: the job engine
// (pg-boss through its PGlite adapter, lib/background/boss.ts). A second PGlite on the same folder is not allowed.
const pgliteOfClient = new WeakMap<PrismaClient, PGlite>();

/** The PGlite instance a client opened by openDb() runs on; undefined for PostgreSQL. */
export function findPglite(db: PrismaClient): PGlite | undefined {
  return pgliteOfClient.get(db);
}

/**
 * An in-memory PGlite lives and dies with this process, so nothing else can migrate it: apply the checked-in
 * migration files here. File databases are migrated by `npm start`/`npm run db:migrate` (wasm schema engine).
 */
async function migrateInMemory(pglite: PGlite) {
  const dir = path.resolve('prisma/migrations');
  for (const name of fs
    .readdirSync(dir)
    .filter((d) => fs.statSync(path.join(dir, d)).isDirectory())
    .sort()) {
    await pglite.exec(fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8'));
  }
}

// A raw statement that opens with `-- prepared: <name>` is prepared once per connection under that name, so
// PostgreSQL parses it once and can reuse its plan: for constant SQL on a hot path (the webhook ingest, where it
// halves the database's CPU per delivery; the session check and a cached verify, where it cut it from ~730 to
// ~270 µs a request). The name must be unique to the text. Everything else is sent unnamed,
// as Prisma sends it. PGlite (one connection, the demo) ignores the header: it is a comment, and so does a
// deployment behind a transaction-pooling PgBouncer (see openDb).
const PREPARED = /^-- prepared: ([a-z0-9-]+)\n/;
// The adapter types the name as a string; undefined (no header) is what pg takes as an unnamed statement.
const statementName = (query: { sql: string }) => PREPARED.exec(query.sql)?.[1] as string;

export async function openDb(database: Config['database']): Promise<PrismaClient> {
  if (database.kind === 'postgres') {
    const adapter = new PrismaPg(
      {
        connectionString: database.url,
        max: database.poolSize,
        // A request waits this long for a connection, then fails (503 with Retry-After at the edge), never forever.
        connectionTimeoutMillis: database.poolTimeoutMs,
        // An idle connection is kept five minutes (Prisma 6's own pool kept them 300 s; pg's default is 10 s). A new
        // connection costs its backend's start, its catalog caches and every named statement prepared again (the
        // roster's row insert parses in 4-19 ms on a fresh backend), so with 10 s a burst after a quiet spell (a
        // roster's last round writing twenty rows at once) opened connections in the user's wait (bench roster).
        idleTimeoutMillis: 5 * 60 * 1000,
        // application_name names this process in pg_stat_activity (operators, and the takeover test's victim).
        application_name: `svc:${process.pid}`,
      },
      // Behind a transaction-pooling PgBouncer (DATABASE_DIRECT_URL set) each statement may meet another server
      // connection, where a statement prepared on the last one does not exist (PgBouncer before 1.21 never tracks
      // them; Debian 12 ships 1.18): every statement is then sent unnamed.
      database.directUrl ? {} : { statementNameGenerator: statementName },
    );
    return new PrismaClient({ adapter });
  }
  const inMemory = database.dataDir.startsWith('memory://');
  if (!inMemory) fs.mkdirSync(path.resolve(database.dataDir), { recursive: true });
  const pglite = new PGlite(inMemory ? database.dataDir : path.resolve(database.dataDir));
  if (inMemory) await migrateInMemory(pglite);
  const client = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  pgliteOfClient.set(client, pglite);
  return client;
}

/** The process's client; the first caller's database settings win (config is read once per process anyway). */
export function getDb(database: Config['database']): Promise<PrismaClient> {
  globalForDb.__db ??= openDb(database).catch((error) => {
    globalForDb.__db = undefined; // let the next request try again (e.g. PostgreSQL restarting)
    throw error;
  });
  return globalForDb.__db;
}
