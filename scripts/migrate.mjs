// npm run db:migrate[:create|:status]: Prisma migrations on the wasm schema engine (see schema-engine.mjs).
//   create <name>  writes prisma/migrations/<yyyymmddhhmmss>_<name>/migration.sql from schema.prisma
//   deploy         applies pending migrations to DATABASE_DIRECT_URL, else DATABASE_URL, else the embedded PGlite
//                  folder (behind a transaction-pooling PgBouncer the migration lock needs the server's own session)
//   status         reports the migration history of that database
import fs from 'node:fs';
import path from 'node:path';
import { applyMigrations, diffMigrationsToSchema, migrationStatus, migrationsDir, root } from './schema-engine.mjs';

export function migrationTarget(env = process.env) {
  // The migration lock is a session advisory lock (schema-engine.mjs): through a transaction-pooling PgBouncer it
  // would be taken on a server connection that goes back to the pool still holding it.
  if (env.DATABASE_DIRECT_URL?.trim()) return env.DATABASE_DIRECT_URL.trim();
  if (env.DATABASE_URL) return env.DATABASE_URL;
  return path.resolve(root, env.PGLITE_DATA_DIR || '.data/pglite');
}

function timestamp(date = new Date()) {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

async function main([command, name]) {
  if (command === 'create') {
    if (!/^[a-z0-9_]+$/.test(name ?? '')) throw new Error('usage: db:migrate:create -- <name> (lowercase, digits, _)');
    const sql = await diffMigrationsToSchema();
    if (!sql) return console.log('No changes: schema.prisma matches the migrations.');
    const dir = path.join(migrationsDir, `${timestamp()}_${name}`);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'migration.sql'), sql);
    return console.log(`Created ${path.relative(root, dir)}/migration.sql`);
  }
  const target = migrationTarget();
  const where = !target.startsWith('postgres')
    ? target
    : process.env.DATABASE_DIRECT_URL?.trim()
      ? 'DATABASE_DIRECT_URL'
      : 'DATABASE_URL';
  if (command === 'deploy') {
    const { appliedMigrationNames } = await applyMigrations(target);
    return console.log(
      appliedMigrationNames.length
        ? `Applied ${appliedMigrationNames.join(', ')} to ${where}`
        : `Database ${where} is up to date`,
    );
  }
  if (command === 'status') {
    const status = await migrationStatus(target);
    console.log(JSON.stringify(status, null, 2));
    const clean = !status.failedMigrationNames?.length && !status.editedMigrationNames?.length && !status.history;
    process.exitCode = clean ? 0 : 1;
    return;
  }
  throw new Error('usage: migrate.mjs create <name> | deploy | status');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
