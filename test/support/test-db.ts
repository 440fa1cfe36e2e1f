// A test file's own PostgreSQL database for code that talks to the database directly (no app process): created
// and migrated before the file's tests, dropped after them, with a North and a South tenant to test scoping.
import { afterAll, beforeAll } from 'vitest';
import { openDb, type Db } from '@/lib/db';
import { createTenant, type TestTenant } from './factories';
import { createTestDatabase, type TestDatabase } from './postgres';

export type TwoClinicDb = { db: Db; north: TestTenant; south: TestTenant };

/** Registers the file's beforeAll/afterAll; the returned object is filled in before the first test runs. */
export function setUpTwoClinicDb(): TwoClinicDb {
  const handle = {} as TwoClinicDb;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    handle.db = await openDb({ kind: 'postgres', url: database.url });
    [handle.north, handle.south] = [await createTenant(handle.db, 'North'), await createTenant(handle.db, 'South')];
  });
  afterAll(async () => {
    await handle.db?.$disconnect();
    await database?.drop();
  });
  return handle;
}
