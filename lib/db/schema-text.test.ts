// Prisma inlines schema.prisma's whole text, comments included, into the generated client, which every server
// route chunk carries. V8 keeps a script's source as one-byte text only while every character is Latin-1: two
// arrows in a comment once made each copy of the shared chunk twice its size in the server's heap (bench/roster).
import fs from 'node:fs';
import { expect, it } from 'vitest';

it('schema.prisma is Latin-1 text', () => {
  const text = fs.readFileSync('prisma/schema.prisma', 'utf8');
  const wider = [...text.matchAll(/[^\u0000-\u00ff]/gu)].map((m) => {
    const line = text.slice(0, m.index).split('\n').length;
    return `line ${line}: ${m[0]}`;
  });
  expect(wider).toEqual([]);
});
