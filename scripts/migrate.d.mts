export declare function migrationTarget(env?: Record<string, string | undefined>): string;
