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
      resolve({
        code: error ? Number(error.code) : 0,
        stdout,
        stderr: stderr
          .split('\n')
          .filter((l) => l && !l.startsWith('npm warn'))
          .join('\n'),
      });
    });
  });
}

describe('npm run x12 -- read-271', () => {
  it('prints one JSON object with status, rejection and the fields, and exits 0', async () => {
    const result = await run([
      'read-271',
      path.join(fixtures, '271-subscriber-ppo.x12'),
      '--dos',
      '2025-03-01',
      '--service-type',
      '30',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      status: 'active',
      eligible: true,
      rejection: null,
      memberId: 'W123456789',
      memberName: 'JANE DOE',
      planName: 'ACME GOLD PPO',
      groupNumber: 'GRP00123',
      deductible: { individual: 150000, met: 50000, remaining: 100000 },
      outOfPocket: { individual: 600000, met: 150000, remaining: 450000 },
      copay: { specialist: 5000, primaryCare: 2500 },
      coinsurance: 20,
      coverageStart: '2025-01-01',
      coverageEnd: null,
      priorAuthRequired: false,
      priorAuthCodes: [],
      network: 'IN',
    });
  });

  it('exits 2 with a one-line reason for a 999 in place of a 271', async () => {
    const result = await run(['read-271', path.join(fixtures, '999-rejected.x12')]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'not a readable 271: 999 acknowledgment (AK9 R) instead of a 271',
    });
  });

  it('exits 2 for text that is not X12', async () => {
    const result = await run(['read-271', path.join(fixtures, 'not-x12.txt')]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'not a readable 271: not X12: the text does not start with an ISA segment',
    });
  });

  it('exits 2 for an interchange larger than 1 MiB, before reading it as X12', async () => {
    const ppo = fs.readFileSync(path.join(fixtures, '271-subscriber-ppo.x12'), 'utf8');
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'x12-'));
    const file = path.join(folder, 'large.x12');
    fs.writeFileSync(file, ppo + '\n'.repeat(1024 * 1024));
    const result = await run(['read-271', file]).finally(() => fs.rmSync(folder, { recursive: true }));
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'not a readable 271: interchange is larger than 1048576 characters (1 MiB)',
    });
  });
});

describe('npm run x12 -- read-835', () => {
  it('prints the one remittance of the file as one JSON object, and exits 0', async () => {
    const result = await run(['read-835', path.join(fixtures, '835-pipes-newline.x12')]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      payerId: 'BETA01',
      payerName: 'BETA HEALTH',
      payeeNpi: '1987654325',
      traceNumber: 'EFT20250402009',
      paymentMethod: 'ACH',
      paymentCents: 8000,
      paymentDate: '2025-04-02',
      claims: [
        {
          claimId: 'clm_south_0007',
          payerClaimId: 'BETA0000123',
          statusCode: '1',
          chargeCents: 20000,
          paidCents: 8000,
          patientResponsibilityCents: 1500,
          adjustments: [{ group: 'PR', reason: '1', amountCents: 500 }],
          lines: [
            {
              procedureCode: '97110',
              modifiers: ['GP', '59', 'KX'],
              chargeCents: 12000,
              paidCents: 7000,
              units: 3,
              adjustments: [
                { group: 'CO', reason: '45', amountCents: 4000 },
                { group: 'PR', reason: '3', amountCents: 1000 },
              ],
            },
            {
              procedureCode: '99212',
              modifiers: [],
              chargeCents: 8000,
              paidCents: 1500,
              units: 1,
              adjustments: [{ group: 'CO', reason: '45', amountCents: 6500 }],
            },
          ],
        },
      ],
      providerAdjustments: [],
    });
  });

  it.each([
    [
      '835-unbalanced.x12',
      'does not balance: service line rule (SVC02 - CAS = SVC03) fails for claim "clm_paid_0001" line 2: 100.00 - 60.00 = 40.00, not 41.00',
    ],
    ['835-two-remittances.x12', 'the interchange holds 2 835s; read one 835 per file'],
    ['835-empty.x12', '835 "0001" is empty: it has no claim payment (CLP)'],
    ['271-subscriber-ppo.x12', 'transaction set "271" is not an 835'],
  ])('exits 2 with a one-line reason for %s', async (file, reason) => {
    const result = await run(['read-835', path.join(fixtures, file)]);
    expect(result).toEqual({ code: 2, stdout: '', stderr: `not a readable 835: ${reason}` });
  });

  it.each([
    [
      'a negative BPR02',
      (x12: string) =>
        x12
          .replace('BPR*I*87.8*C*', 'BPR*I*-87.8*C*')
          .replace('CLP*clm_paid_0001*1*250*87.8*', 'CLP*clm_paid_0001*22*-250*-87.8*'),
      'BPR02 (total payment) is negative (-87.8): its direction is BPR03 C or D',
    ],
    [
      'a BEL in the payer name',
      (x12: string) => x12.replace('N1*PR*ACME HEALTH PLAN*', 'N1*PR*ACME\u0007 HEALTH PLAN*'),
      /^a control character \(U\+0007\) at character \d+, in segment N1: an 835 holds printable text only$/,
    ],
  ])('exits 2 with a one-line reason for %s', async (_label, mangle, reason) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'x12-835-'));
    const file = path.join(dir, 'era.x12');
    fs.writeFileSync(file, mangle(fs.readFileSync(path.join(fixtures, '835-paid-and-denied.x12'), 'utf8')));
    try {
      const result = await run(['read-835', file]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.startsWith('not a readable 835: ')).toBe(true);
      const said = result.stderr.slice('not a readable 835: '.length);
      if (typeof reason === 'string') expect(said).toBe(reason);
      else expect(said).toMatch(reason);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
