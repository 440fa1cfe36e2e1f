// The changelog is a living contract (SPEC "Versioning" 2): every operation of /api/openapi.json is named in
// CHANGELOG.md (`METHOD /path` in backticks), and an operation that leaves the document is named under Removed.
// Fails when an operation is added or removed without its changelog line.
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '@/lib/api/build-openapi';
import { operationsNamed, parseChangelog, readChangelog } from './read-changelog';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function openApiOperations(): Set<string> {
  const doc = buildOpenApi('http://localhost') as { paths: Record<string, Record<string, unknown>> };
  const ops = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths))
    for (const method of METHODS) if (item[method]) ops.add(`${method.toUpperCase()} ${path}`);
  return ops;
}

describe('CHANGELOG.md covers the API surface', () => {
  it('names every operation of the OpenAPI document', async () => {
    const { entries } = await readChangelog();
    const named = operationsNamed(entries.flatMap((e) => [...e.added, ...e.changed, ...e.deprecated]).join('\n'));
    const missing = [...openApiOperations()].filter((op) => !named.has(op));
    expect(missing, 'operations to write in CHANGELOG.md').toEqual([]);
  });

  it('writes under Removed every operation it named that the OpenAPI document no longer has', async () => {
    const { entries } = await readChangelog();
    const current = openApiOperations();
    const removed = operationsNamed(entries.flatMap((e) => e.removed).join('\n'));
    const named = operationsNamed(entries.flatMap((e) => [...e.added, ...e.changed, ...e.deprecated]).join('\n'));
    const gone = [...named].filter((op) => !current.has(op) && !removed.has(op));
    expect(gone, 'operations to write under Removed').toEqual([]);
  });

  it('reads Keep a Changelog sections, dates and wrapped bullets', () => {
    const entries = parseChangelog(
      [
        '# Changelog',
        '## [Unreleased]',
        '### Added',
        '- `GET /api/a` and',
        '  more words.',
        '## [1.0.0] - 2026-01-02',
        '### Removed',
        '- `DELETE /api/b`',
        '### Security',
        '- fixed a thing',
      ].join('\n'),
    );
    expect(entries).toEqual([
      {
        version: 'Unreleased',
        date: null,
        added: ['`GET /api/a` and more words.'],
        changed: [],
        deprecated: [],
        removed: [],
        fixed: [],
        security: [],
      },
      {
        version: '1.0.0',
        date: '2026-01-02',
        added: [],
        changed: [],
        deprecated: [],
        removed: ['`DELETE /api/b`'],
        fixed: [],
        security: ['fixed a thing'],
      },
    ]);
    expect(operationsNamed(entries[1]!.removed.join(' '))).toEqual(new Set(['DELETE /api/b']));
  });
});
