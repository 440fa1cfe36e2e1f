// GET /api/changelog: CHANGELOG.md (Keep a Changelog 1.1) as JSON (DECISIONS "Events out"): one entry per
// `## [version] - date` section, newest first as written, each with its Added/Changed/Deprecated/Removed/Fixed/
// Security items as strings. The file is the source: an API change is written there, and this only reads it.
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

const KINDS = ['added', 'changed', 'deprecated', 'removed', 'fixed', 'security'] as const;
type Kind = (typeof KINDS)[number];

export const ChangelogEntry = z.object({
  version: z.string(),
  /** ISO date of the release; null for Unreleased. */
  date: z.string().nullable(),
  ...Object.fromEntries(KINDS.map((kind) => [kind, z.array(z.string())])),
} as { version: z.ZodString; date: z.ZodNullable<z.ZodString> } & Record<Kind, z.ZodArray<z.ZodString>>);
export type ChangelogEntry = z.infer<typeof ChangelogEntry>;

export const Changelog = z.object({ entries: z.array(ChangelogEntry) });

export const CHANGELOG_FILE = 'CHANGELOG.md';

export async function readChangelog(root = process.cwd()): Promise<z.infer<typeof Changelog>> {
  return { entries: parseChangelog(await fs.readFile(path.join(root, CHANGELOG_FILE), 'utf8')) };
}

/** Pure: the entries of a Keep a Changelog document. A bullet's indented continuation lines join its text. */
export function parseChangelog(markdown: string): ChangelogEntry[] {
  const entries: ChangelogEntry[] = [];
  let entry: ChangelogEntry | undefined;
  let kind: Kind | undefined;
  for (const line of markdown.split(/\r?\n/)) {
    const version = /^## \[([^\]]+)\](?:\s+-\s+(\d{4}-\d{2}-\d{2}))?/.exec(line);
    if (version) {
      entry = { version: version[1]!, date: version[2] ?? null, ...emptyKinds() };
      entries.push(entry);
      kind = undefined;
      continue;
    }
    const heading = /^### (\w+)/.exec(line);
    if (heading) {
      const name = heading[1]!.toLowerCase();
      kind = (KINDS as readonly string[]).includes(name) ? (name as Kind) : undefined;
      continue;
    }
    if (!entry || !kind) continue;
    const items = entry[kind];
    if (line.startsWith('- ')) items.push(line.slice(2).trim());
    else if (/^\s+\S/.test(line) && items.length) items[items.length - 1] += ` ${line.trim()}`;
  }
  return entries;
}

const emptyKinds = (): Record<Kind, string[]> =>
  Object.fromEntries(KINDS.map((kind) => [kind, [] as string[]])) as Record<Kind, string[]>;

/**
 * The operations a changelog text names, written `METHOD /path` in backticks (the convention CHANGELOG.md states):
 * what the coverage test compares with /api/openapi.json.
 */
export function operationsNamed(text: string): Set<string> {
  return new Set([...text.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s]*)`/g)].map((m) => `${m[1]} ${m[2]}`));
}
