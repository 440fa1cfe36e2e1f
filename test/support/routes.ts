// The route files under app/api and the methods each exports, read from the source: the registry tests use it
// to prove every route file is declared in lib/api/registry.ts, so routes added later are covered.
import fs from 'node:fs';
import path from 'node:path';

export type RouteFile = { file: string; path: string; methods: string[] };

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : e.name === 'route.ts' ? [path.join(dir, e.name)] : [],
    );
}

/** app/api/emr-sync/connections/[id]/route.ts → /api/emr-sync/connections/{id}. */
export function routeFiles(root = 'app'): RouteFile[] {
  return walk(path.resolve(root)).map((file) => {
    const rel = path.relative(path.resolve(root), path.dirname(file)).split(path.sep);
    const urlPath =
      '/' +
      rel
        .filter((s) => !/^\(.*\)$/.test(s))
        .map((s) => s.replace(/^\[(\.\.\.)?(.+)\]$/, (_, rest, name) => (rest ? `{...${name}}` : `{${name}}`)))
        .join('/');
    const source = fs.readFileSync(file, 'utf8');
    const methods = METHODS.filter((m) =>
      new RegExp(`export\\s+(const|async function|function)\\s+${m}\\b|\\bas\\s+${m}\\b`).test(source),
    );
    return { file: path.relative(process.cwd(), file), path: urlPath, methods };
  });
}

/** A concrete URL for a templated path: every {param} becomes a harmless placeholder. */
export const concretePath = (templated: string) => templated.replace(/\{[^}]+\}/g, 'x-placeholder');
