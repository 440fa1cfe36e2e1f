// npm run bench -- <name>: runs bench/<name>.ts. Each bench prints, as its last line, one JSON object
// {"name", "ratio", "target", ...}: a ratio against a baseline measured in the same run.
import path from 'node:path';
import fs from 'node:fs';

const name = process.argv[2];
const file = path.join(import.meta.dirname, `${name ?? ''}.ts`);
if (!name || !/^[a-z0-9-]+$/.test(name) || !fs.existsSync(file)) {
  const available = fs
    .readdirSync(import.meta.dirname)
    .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
    .map((f) => f.slice(0, -3));
  console.error(`usage: npm run bench -- <name>; available: ${available.join(', ') || 'none'}`);
  process.exit(2);
}
await import(file);
