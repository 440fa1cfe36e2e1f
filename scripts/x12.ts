// Command-line X12 tools: `read-271 FILE [--dos YYYY-MM-DD] [--service-type CODE]` prints the eligibility result
// as one JSON object (ELIGIBILITY.md); `read-835 FILE` prints the one remittance of the file (DECISIONS.md "Money
// in"); `read-999 FILE` and `read-277 FILE` print a 999 or a 277CA/277 (issue #13). Reading is lib/x12's; this file
// only handles arguments, files and exit codes.
import fs from 'node:fs';
import { read277 } from '@/lib/x12/read-277';
import { read835 } from '@/lib/x12/read-835';
import { read999 } from '@/lib/x12/read-999';
import { readEligibility } from '@/lib/x12/read-eligibility';
import { X12ReadError } from '@/lib/x12/x12-read-error';

const USAGE =
  'usage: npm run --silent x12 -- read-271 FILE [--dos YYYY-MM-DD] [--service-type CODE] | read-835 FILE | read-999 FILE | read-277 FILE';

function fail(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** Today in the machine's local time zone: the date a front desk means by "today". */
function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function readFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fail(`cannot read ${file}`, 66);
  }
}

/** Prints what `read` makes of the file; exit 2 with the reason when it is not a readable `kind`. */
function readCommand(file: string, kind: string, read: (text: string) => unknown): void {
  const text = readFile(file);
  try {
    process.stdout.write(`${JSON.stringify(read(text))}\n`);
  } catch (error) {
    if (error instanceof X12ReadError) fail(`not a readable ${kind}: ${error.reason}`, 2);
    throw error;
  }
}

// The one-file readers: an 835 must also balance (read835 checks the TR3's three rules).
const READERS: Readonly<Record<string, [kind: string, read: (text: string) => unknown]>> = {
  'read-835': ['835', read835],
  'read-999': ['999', read999],
  'read-277': ['277', read277],
};

function main(argv: string[]): void {
  const [command, file, ...rest] = argv;
  const reader = command && Object.hasOwn(READERS, command) ? READERS[command] : undefined;
  if (reader && file && rest.length === 0) return readCommand(file, ...reader);
  if (command !== 'read-271' || !file) fail(USAGE, 64);
  let dateOfService = today();
  let serviceTypeCode = '30';
  for (let i = 0; i < rest.length; i += 2) {
    const value = rest[i + 1];
    if (rest[i] === '--dos' && value && /^\d{4}-\d{2}-\d{2}$/.test(value)) dateOfService = value;
    else if (rest[i] === '--service-type' && value && /^[A-Z0-9]{1,2}$/.test(value)) serviceTypeCode = value;
    else fail(USAGE, 64);
  }
  const text = readFile(file!);
  try {
    const { evidence: _evidence, ...result } = readEligibility(text, { dateOfService, serviceTypeCode });
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } catch (error) {
    if (error instanceof X12ReadError) fail(`not a readable 271: ${error.reason}`, 2);
    throw error;
  }
}

main(process.argv.slice(2));
