// Prisma CLI configuration: the CLI only generates the client here. Migrations run on the wasm schema engine
// (scripts/migrate.mjs), so the native engine is pointed at a stub that refuses and never downloads.
import path from 'node:path';
import { defineConfig } from 'prisma/config';

process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.resolve('scripts/schema-engine-stub.sh');

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/unused' },
});
