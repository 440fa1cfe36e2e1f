// Types for the plain-JS schema engine driver, so TypeScript scripts can call it.
export declare function applyMigrations(target: string): Promise<{ appliedMigrationNames: string[] }>;
export declare function migrationStatus(target: string): Promise<{
  failedMigrationNames: string[];
  editedMigrationNames: string[];
  history: unknown;
  hasMigrationsTable: boolean;
}>;
export declare function diffMigrationsToSchema(): Promise<string>;
export declare function readMigrations(): unknown;
export declare const migrationsDir: string;
export declare const root: string;
