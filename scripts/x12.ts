// Command-line X12 tools: `read-271 FILE [--dos YYYY-MM-DD] [--service-type CODE]` prints the eligibility result
// as one JSON object (ELIGIBILITY.md); `read-835 FILE` prints the one remittance of the file (DECISIONS.md "Money
// in"). Reading is lib/x12's; this file only handles arguments, files and exit codes.
import fs from 'node:fs';
import { read835 } from '@/lib/x12/read-835';
import { readEligibility } from '@/lib/x12/read-eligibility';
import { X12ReadError } from '@/lib/x12/x12-read-error';

const USAGE = 'usage: npm run --silent x12 -- read-271 FILE [--dos YYYY-MM-DD] [--service-type CODE] | read-835 FILE';

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

/** Exit 2 with the reason when the file is not one readable, balanced 835. */
function read835Command(file: string): void {
  const text = readFile(file);
  try {
    process.stdout.write(`${JSON.stringify(read835(text))}\n`);
  } catch (error) {
    if (error instanceof X12ReadError) fail(`not a readable 835: ${error.reason}`, 2);
    throw error;
  }
}

function main(argv: string[]): void {
  const [command, file, ...rest] = argv;
  if (command === 'read-835' && file && rest.length === 0) return read835Command(file);
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
