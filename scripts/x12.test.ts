import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const fixtures = path.join(root, 'lib/x12/fixtures');

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npx', ['tsx', 'scripts/x12.ts', ...args], { cwd: root }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr: stderr.split('\n').filter((l) => l && !l.startsWith('npm warn')).join('\n') });
    });
  });
}

describe('npm run x12 -- read-271', () => {
  it('prints one JSON object with status, rejection and the fields, and exits 0', async () => {
    const result = await run(['read-271', path.join(fixtures, '271-subscriber-ppo.x12'), '--dos', '2025-03-01', '--service-type', '30']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      status: 'active', eligible: true, rejection: null,
      memberId: 'W123456789', memberName: 'JANE DOE', planName: 'ACME GOLD PPO', groupNumber: 'GRP00123',
      deductible: { individual: 150000, met: 50000, remaining: 100000 },
      outOfPocket: { individual: 600000, met: 150000, remaining: 450000 },
      copay: { specialist: 5000, primaryCare: 2500 }, coinsurance: 20,
      coverageStart: '2025-01-01', coverageEnd: null, priorAuthRequired: false, priorAuthCodes: [], network: 'IN',
    });
  });

  it('exits 2 with a one-line reason for a 999 in place of a 271', async () => {
    const result = await run(['read-271', path.join(fixtures, '999-rejected.x12')]);
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'not a readable 271: 999 acknowledgment (AK9 R) instead of a 271' });
  });

  it('exits 2 for text that is not X12', async () => {
    const result = await run(['read-271', path.join(fixtures, 'not-x12.txt')]);
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'not a readable 271: not X12: the text does not start with an ISA segment' });
  });

  it('exits 2 for an interchange larger than 1 MiB, before reading it as X12', async () => {
    const ppo = fs.readFileSync(path.join(fixtures, '271-subscriber-ppo.x12'), 'utf8');
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'x12-'));
    const file = path.join(folder, 'large.x12');
    fs.writeFileSync(file, ppo + '\n'.repeat(1024 * 1024));
    const result = await run(['read-271', file]).finally(() => fs.rmSync(folder, { recursive: true }));
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'not a readable 271: interchange is larger than 1048576 characters (1 MiB)' });
  });
});
