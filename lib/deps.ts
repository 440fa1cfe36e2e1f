// Composition root: the real adapters, built from config the first time a route needs them, so an
// unconfigured integration fails only on the routes that use it. Domain code receives what it needs from
// here as its first argument and never imports adapters itself.
import { getConfig, type Config } from './config';
import { getDb, type Db } from './db';
import { systemClock, type Clock } from './clock';

export type Deps = {
  db: Db;
  clock: Clock;
  config: Config;
};

export async function getDeps(): Promise<Deps> {
  return { db: await getDb(), clock: systemClock, config: getConfig() };
}
