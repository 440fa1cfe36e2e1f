// npm run --silent admin -- create-user --org NAME --clinic NAME --email EMAIL --scopes a,b,c
// Creates (or reuses) the organization and clinic by name and a user with the given scopes; the password is
// read from standard input (never an argument, so it stays out of shell history and process lists). Works in
// every mode, and creates and migrates the database first when it does not exist yet.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { parseConfig } from '../lib/config';
import { openDb } from '../lib/db';
import { hashPassword } from '../lib/auth/password';
import { isScope } from '../lib/auth/scopes';
import { applyMigrations } from './schema-engine.mjs';
import { migrationTarget } from './migrate.mjs';

function fail(message: string): never {
  console.error(`admin: ${message}`);
  process.exit(2);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (command !== 'create-user')
    fail('usage: admin create-user --org NAME --clinic NAME --email EMAIL --scopes a,b,c (password on stdin)');
  const { values } = parseArgs({
    args: rest,
    options: {
      org: { type: 'string' },
      clinic: { type: 'string' },
      email: { type: 'string' },
      scopes: { type: 'string' },
    },
  });
  const { org, clinic, email, scopes } = values;
  if (!org || !clinic || !email || scopes === undefined) fail('--org, --clinic, --email and --scopes are required');
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) fail('--email is not an e-mail address');
  const scopeList = scopes
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopeList.filter((s) => !isScope(s));
  if (unknown.length) fail(`unknown scopes: ${unknown.join(', ')}`);
  // Before the password is read: a deployment with DATABASE_URL and no SVC_ENV is refused at once.
  const config = parseConfig(process.env);
  const password = await readStdin();
  if (password.length < 12) fail('the password (stdin) must be at least 12 characters');
  if (config.mode === 'production' && password === 'demo-password-1') fail('production refuses the demo password');

  await applyMigrations(migrationTarget(process.env));
  const db = await openDb(config.database);
  try {
    const organization =
      (await db.organization.findFirst({ where: { name: org } })) ??
      (await db.organization.create({ data: { id: `org_${randomUUID()}`, name: org } }));
    const clinicRow =
      (await db.clinic.findFirst({ where: { orgId: organization.id, name: clinic } })) ??
      (await db.clinic.create({ data: { id: `clinic_${randomUUID()}`, orgId: organization.id, name: clinic } }));
    if (await db.user.findUnique({ where: { email: email.toLowerCase() } })) fail(`a user with e-mail ${email} exists`);
    const user = await db.user.create({
      data: {
        id: `user_${randomUUID()}`,
        orgId: organization.id,
        clinicId: clinicRow.id,
        email: email.toLowerCase(),
        passwordHash: await hashPassword(password),
        scopes: scopeList,
      },
    });
    console.log(
      JSON.stringify({
        userId: user.id,
        orgId: organization.id,
        clinicId: clinicRow.id,
        email: user.email,
        scopes: scopeList,
      }),
    );
  } finally {
    await db.$disconnect();
  }
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
