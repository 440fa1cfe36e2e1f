// Prisma's wasm schema engine driven through a driver adapter: the native engine cannot be downloaded here.
// It does what `prisma migrate dev/deploy/status/diff` do, in Prisma's own migrations layout, so a machine
// with the native engine can run `prisma migrate deploy` on the same folder.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import * as runtime from '@prisma/schema-engine-wasm/schema_engine_bg';

const require = createRequire(import.meta.url);
export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const schemaPath = path.join(root, 'prisma/schema.prisma');
export const migrationsDir = path.join(root, 'prisma/migrations');
const filters = { externalTables: [], externalEnums: [] };

let wasmReady = false;
function loadWasm() {
  if (wasmReady) return;
  // Node 20 cannot `import` a .wasm file, so instantiate it by hand as @prisma/internals does.
  const wasmPath = path.join(
    path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')),
    'schema_engine_bg.wasm',
  );
  const instance = new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync(wasmPath)), {
    './schema_engine_bg.js': runtime,
  });
  runtime.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  wasmReady = true;
}

// Both adapters run migration scripts differently from Prisma's native engine, which sends a script whole:
// - pglite-prisma-adapter 0.7.2 does not await exec(), so a failing migration would be recorded as applied;
// - @prisma/adapter-pg splits the script on every ';', which breaks any $$-quoted function body.
// Send the whole script in one simple-protocol query on both, and let failures surface.
function patchExecuteScript(adapter, run) {
  adapter.executeScript = async (script) => {
    await run(adapter.client, script);
  };
  return adapter;
}
const runPglite = (client, script) => client.exec(script);
const runPg = (client, script) => client.query(script);

/**
 * Patches every adapter the engine connects and remembers it, so `close` can dispose them: the engine's free()
 * does not, and a pg pool's idle connection kept holding Prisma's migration advisory lock for its 10 s idle
 * timeout, so instances started together timed out waiting for it.
 */
function patchFactory(factory, run) {
  const connect = factory.connect.bind(factory);
  const shadow = factory.connectToShadowDb.bind(factory);
  const opened = [];
  const remember = (adapter) => {
    opened.push(adapter);
    return patchExecuteScript(adapter, run);
  };
  factory.connect = async () => remember(await connect());
  factory.connectToShadowDb = async () => remember(await shadow());
  const dispose = async () => {
    await Promise.all(opened.splice(0).map((adapter) => adapter.dispose()));
  };
  return { factory, dispose };
}

/** A driver adapter factory for a target: `postgresql://...` or a PGlite data dir (`memory://` allowed). */
export function adapterFor(target) {
  if (/^postgres(ql)?:\/\//.test(target)) {
    const { factory, dispose } = patchFactory(new PrismaPg({ connectionString: target }), runPg);
    return { factory, close: dispose };
  }
  if (!target.startsWith('memory://')) fs.mkdirSync(target, { recursive: true });
  const pglite = new PGlite(target);
  return { factory: patchFactory(new PrismaPGlite(pglite), runPglite).factory, close: () => pglite.close() };
}

export function readMigrations() {
  const dirs = fs.existsSync(migrationsDir)
    ? fs
        .readdirSync(migrationsDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  return {
    baseDir: migrationsDir,
    lockfile: {
      path: 'migration_lock.toml',
      content: fs.readFileSync(path.join(migrationsDir, 'migration_lock.toml'), 'utf8'),
    },
    shadowDbInitScript: '',
    migrationDirectories: dirs.map((name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok', value: fs.readFileSync(path.join(migrationsDir, name, 'migration.sql'), 'utf8') },
      },
    })),
  };
}

export async function withEngine(target, fn) {
  loadWasm();
  const { factory, close } = adapterFor(target);
  const bound = bindMigrationAwareSqlAdapterFactory(factory);
  const schema = fs.readFileSync(schemaPath, 'utf8');
  const engine = await runtime.SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, () => {}, bound);
  try {
    return await fn(engine, schema);
  } catch (error) {
    // The engine reports adapter failures by id; fetch the real error so the message says what broke.
    const id = /External error id#(\d+)/.exec(String(error?.message))?.[1];
    const cause = id && bound.errorRegistry?.consumeError?.(Number(id));
    throw cause ? new Error(`${error.message}: ${JSON.stringify(cause.error ?? cause)}`) : error;
  } finally {
    engine.free();
    await close();
  }
}

/** SQL that would bring the migrations folder to schema.prisma; '' when they agree. */
export async function diffMigrationsToSchema() {
  return withEngine('memory://', async (engine, schema) => {
    const result = await engine.diff({
      from: { tag: 'migrations', ...readMigrations() },
      to: { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: schema }] },
      script: true,
      exitCode: true,
      filters,
    });
    const sql = result.stdout ?? '';
    return /^\s*(--.*\s*)*$/.test(sql) || /This is an empty migration/.test(sql) ? '' : sql;
  });
}

// Our own lock, taken before the engine's: instances started together queue here for as long as it takes, where
// the engine's own advisory lock gives up after 10 s ("Timed out trying to acquire a postgres advisory lock").
const MIGRATE_LOCK_KEY = 727_073_690;

async function whileHoldingMigrateLock(target, fn) {
  if (!/^postgres(ql)?:\/\//.test(target)) return fn(); // PGlite: one process owns the folder
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK_KEY]);
    return await fn();
  } finally {
    await client.end(); // ends the session, which releases the lock even if the unlock never ran
  }
}

export async function applyMigrations(target) {
  return whileHoldingMigrateLock(target, () =>
    withEngine(target, (engine) => engine.applyMigrations({ migrationsList: readMigrations(), filters })),
  );
}

export async function migrationStatus(target) {
  return withEngine(target, (engine) =>
    engine.diagnoseMigrationHistory({ migrationsList: readMigrations(), optInToShadowDatabase: false, filters }),
  );
}
