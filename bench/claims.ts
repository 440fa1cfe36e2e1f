// npm run bench -- claims: 10,000 synthetic claims of 1 to 6 lines, each scrubbed (every edit) and written as an
// 837P by our code, against node-x12's generator writing the same 837P segments from the same claims in the same
// run. The baseline maps each claim to node-x12's JS EDI notation here and lets node-x12 serialize it (envelope,
// SE/GE/IEA counts); before timing, every claim's two documents are checked to be the same bytes, so the two
// sides do the same work (ours also scrubs). `ratio` is our claims per second over theirs; target at least 2.
// The last line is one JSON object {"name","ratio","target",...}.
import { JSEDINotation, X12Generator } from 'node-x12';
import { scrubClaim } from '../lib/claims/scrub/scrub-claim';
import type { ScrubInput } from '../lib/claims/scrub/scrub-edits';
import { build837p, type Build837pInput } from '../lib/x12/build-837p';
import { formatAmount } from '../lib/x12/format-amount';
import type { Demographics, PersonName, PostalAddress } from '../lib/x12/professional-claim';
import { toD8 } from '../lib/x12/to-d8';

const CLAIMS = 10_000;
const TARGET = 2;

// A fixed-seed generator (mulberry32), so every run measures the same claims.
let seed = 0x837;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

const PROCEDURES = ['99213', '99214', '99215', '29540', '97110', '93000', '80053', 'G0463', 'J1100', '0001U', '3074F'];
const MODIFIERS = ['25', '59', 'RT', 'LT', 'GP', 'XS', '76'];
const DIAGNOSES = ['J06.9', 'I10', 'E11.9', 'S93.401A', 'M17.11', 'R50.9', 'Z79.84', 'M25.561', 'K21.9', 'F41.1'];
const NPIS = ['1245319599', '1987654328', '1111111112'];
const address = (n: number): PostalAddress => ({
  line1: `${n} ELM ST`,
  city: 'SPRINGFIELD',
  state: 'IL',
  postalCode: '62704',
});
const demographics = (n: number): Demographics => ({
  birthDate: `19${50 + (n % 50)}-0${1 + (n % 9)}-1${n % 10}`,
  sex: pick(['F', 'M']),
  address: address(n),
});

function makeClaim(n: number): ScrubInput & { envelope: Omit<Build837pInput, 'claim'> } {
  const isDependent = random() < 0.4;
  const diagnoses = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(DIAGNOSES));
  const lines = Array.from({ length: 1 + Math.floor(random() * 6) }, () => ({
    procedureCode: pick(PROCEDURES),
    modifiers: Array.from({ length: Math.floor(random() * 3) }, () => pick(MODIFIERS)),
    diagnosisPointers: Array.from({ length: 1 + Math.floor(random() * diagnoses.length) }, (_, i) => i + 1),
    units: 1 + Math.floor(random() * 3),
    chargeCents: 1000 + Math.floor(random() * 50_000),
    serviceDate: `2025-03-0${1 + Math.floor(random() * 9)}`,
  }));
  const subscriberName: PersonName = {
    lastName: `DOE${n}`,
    firstName: 'JOHN',
    middleName: random() < 0.3 ? 'Q' : undefined,
  };
  if (subscriberName.middleName === undefined) delete subscriberName.middleName;
  return {
    today: '2025-03-10',
    hasMatchingActiveCheck: true,
    duplicateOf: null,
    envelope: {
      interchangeControlNumber: n + 1,
      groupControlNumber: n + 1,
      transactionControlNumber: String(n + 1).padStart(4, '0'),
      senderId: 'CLINICSUBMIT',
      receiverId: 'CLEARINGHOUSE',
      usageIndicator: 'T',
      createdAt: new Date(Date.UTC(2025, 2, 10, 14, n % 60)),
      batchId: `BATCH${n}`,
      submitter: { id: 'CLINICSUBMIT', name: 'NORTHSIDE CLINIC', contactName: 'BILLING OFFICE', phone: '5555550100' },
      receiver: { id: 'CLEARINGHOUSE', name: 'DEMO CLEARINGHOUSE' },
    },
    claim: {
      claimId: `clm_${n.toString(16).padStart(16, '0')}`, // newClaimId's shape: 20 characters, CLM01's limit
      totalChargeCents: lines.reduce((sum, line) => sum + line.chargeCents, 0),
      placeOfService: pick(['11', '22', '02', '10']),
      diagnoses,
      lines,
      billingProvider: {
        npi: '1234567893',
        name: 'NORTHSIDE CLINIC',
        taxonomyCode: '207Q00000X',
        taxId: '123456789',
        address: { line1: '100 MAIN ST', city: 'SPRINGFIELD', state: 'IL', postalCode: '627010001' },
      },
      ...(random() < 0.5
        ? {
            renderingProvider: {
              npi: pick(NPIS),
              name: { lastName: 'SMITH', firstName: 'ANNA' },
              taxonomyCode: '208000000X',
            },
          }
        : {}),
      payer: { id: '60054', name: 'DEMO HEALTH PLAN' },
      subscriber: {
        memberId: `W${100_000_000 + n}`,
        groupNumber: 'GRP1001',
        name: subscriberName,
        demographics: isDependent ? null : demographics(n),
      },
      patient: isDependent
        ? {
            relationshipCode: pick(['19', '01']),
            name: { lastName: `DOE${n}`, firstName: 'TIMMY' },
            demographics: demographics(n + 1),
          }
        : null,
    },
  };
}

const claims = Array.from({ length: CLAIMS }, (_, n) => makeClaim(n));

let sink = 0;

/** Ours: scrub every claim, and write the 837P of each one that passes. */
function ours(claim: (typeof claims)[number]): string {
  const issues = scrubClaim(claim);
  if (issues.length > 0) throw new Error(`bench claim ${claim.claim.claimId} fails ${issues[0]!.edit}`);
  return build837p({ ...claim.envelope, claim: claim.claim });
}

/** Theirs: the same segments, mapped to node-x12's JS EDI notation and serialized by its generator. */
function theirs({ envelope, claim }: (typeof claims)[number]): string {
  const at = envelope.createdAt;
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}`;
  const time = `${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}`;
  const icn = String(envelope.interchangeControlNumber).padStart(9, '0');
  const jsen = new JSEDINotation(
    [
      '00',
      ' '.repeat(10),
      '00',
      ' '.repeat(10),
      'ZZ',
      envelope.senderId.padEnd(15),
      'ZZ',
      envelope.receiverId.padEnd(15),
      date.slice(2),
      time,
      '^',
      '00501',
      icn,
      '0',
      envelope.usageIndicator ?? 'P',
      ':',
    ],
    OPTIONS,
  );
  const transaction = jsen
    .addFunctionalGroup([
      'HC',
      envelope.senderId,
      envelope.receiverId,
      date,
      time,
      String(envelope.groupControlNumber),
      'X',
      '005010X222A1',
    ])
    .addTransaction(['837', envelope.transactionControlNumber, '005010X222A1']);
  const add = (tag: string, ...elements: string[]) => {
    let last = elements.length;
    while (last > 0 && elements[last - 1] === '') last--;
    transaction.addSegment(tag, elements.slice(0, last));
  };
  const name = (n: PersonName) => [n.lastName, n.firstName, n.middleName ?? ''];
  const where = (a: PostalAddress) => {
    add('N3', a.line1, a.line2 ?? '');
    add('N4', a.city, a.state, a.postalCode);
  };
  const person = (d: Demographics) => {
    where(d.address);
    add('DMG', 'D8', toD8(d.birthDate, 'birthDate'), d.sex);
  };
  const { submitter, receiver } = envelope;
  const { billingProvider: billing, subscriber, patient } = claim;
  add('BHT', '0019', '00', envelope.batchId, date, time, 'CH');
  add('NM1', '41', '2', submitter.name, '', '', '', '', '46', submitter.id);
  add('PER', 'IC', submitter.contactName, 'TE', submitter.phone ?? '');
  add('NM1', '40', '2', receiver.name, '', '', '', '', '46', receiver.id);
  add('HL', '1', '', '20', '1');
  add('PRV', 'BI', 'PXC', billing.taxonomyCode);
  add('NM1', '85', '2', billing.name, '', '', '', '', 'XX', billing.npi);
  where(billing.address);
  add('REF', 'EI', billing.taxId);
  add('HL', '2', '1', '22', patient ? '1' : '0');
  add('SBR', 'P', patient ? '' : '18', subscriber.groupNumber ?? '', '', '', '', '', '', 'CI');
  add('NM1', 'IL', '1', ...name(subscriber.name), '', '', 'MI', subscriber.memberId);
  if (!patient) person(subscriber.demographics!);
  add('NM1', 'PR', '2', claim.payer.name, '', '', '', '', 'PI', claim.payer.id);
  if (patient) {
    add('HL', '3', '2', '23', '0');
    add('PAT', patient.relationshipCode);
    add('NM1', 'QC', '1', ...name(patient.name));
    person(patient.demographics);
  }
  add(
    'CLM',
    claim.claimId,
    formatAmount(claim.totalChargeCents),
    '',
    '',
    `${claim.placeOfService}:B:1`,
    'Y',
    'A',
    'Y',
    'Y',
  );
  add('HI', ...claim.diagnoses.map((code, i) => `${i === 0 ? 'ABK' : 'ABF'}:${code.replace('.', '')}`));
  if (claim.renderingProvider) {
    add('NM1', '82', '1', ...name(claim.renderingProvider.name), '', '', 'XX', claim.renderingProvider.npi);
    if (claim.renderingProvider.taxonomyCode) add('PRV', 'PE', 'PXC', claim.renderingProvider.taxonomyCode);
  }
  claim.lines.forEach((line, i) => {
    add('LX', String(i + 1));
    add(
      'SV1',
      ['HC', line.procedureCode, ...line.modifiers].join(':'),
      formatAmount(line.chargeCents),
      'UN',
      String(line.units),
      '',
      '',
      line.diagnosisPointers.join(':'),
    );
    add('DTP', '472', 'D8', toD8(line.serviceDate, 'serviceDate'));
  });
  return new X12Generator(jsen, OPTIONS).toString();
}

const OPTIONS = {
  elementDelimiter: '*',
  segmentTerminator: '~',
  subElementDelimiter: ':',
  repetitionDelimiter: '^',
  endOfLine: '\n',
  format: true,
};

// Same bytes from both sides for every claim (node-x12 ends the last segment without a line break).
for (const claim of claims) {
  const [a, b] = [ours(claim), theirs(claim)];
  if (a !== `${b}\n`) throw new Error(`the two 837Ps differ for ${claim.claim.claimId}:\n${a}\n---\n${b}`);
}

// The machine is shared, so a slice of either side can be descheduled. Both sides run the same blocks of claims
// in turn (alternating which goes first), several rounds, and each block counts at its fastest round: both are
// measured at their best on the same load, and a preempted block does not decide the ratio.
const BLOCK = 250;
const ROUNDS = 7;
const blocks = Array.from({ length: CLAIMS / BLOCK }, (_, i) => claims.slice(i * BLOCK, (i + 1) * BLOCK));
const timeMs = (block: typeof claims, write: (claim: (typeof claims)[number]) => string) => {
  const start = process.hrtime.bigint();
  for (const claim of block) sink += write(claim).length;
  return Number(process.hrtime.bigint() - start) / 1e6;
};
const fastestOurs = blocks.map(() => Infinity);
const fastestTheirs = blocks.map(() => Infinity);
for (let round = -2; round < ROUNDS; round++) {
  // two warm-up rounds
  blocks.forEach((block, i) => {
    let oursMs: number;
    let theirsMs: number;
    if (round % 2 === 0) {
      oursMs = timeMs(block, ours);
      theirsMs = timeMs(block, theirs);
    } else {
      theirsMs = timeMs(block, theirs);
      oursMs = timeMs(block, ours);
    }
    if (round >= 0) {
      fastestOurs[i] = Math.min(fastestOurs[i]!, oursMs);
      fastestTheirs[i] = Math.min(fastestTheirs[i]!, theirsMs);
    }
  });
}
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const oursPerSecond = CLAIMS / (sum(fastestOurs) / 1000);
const theirsPerSecond = CLAIMS / (sum(fastestTheirs) / 1000);
const lineCount = sum(claims.map((claim) => claim.claim.lines.length));
console.error(
  `claims: ${CLAIMS}, lines: ${lineCount}, ours ${sum(fastestOurs).toFixed(0)} ms, node-x12 ${sum(fastestTheirs).toFixed(0)} ms, sink ${sink}`,
);
console.log(
  JSON.stringify({
    name: 'claims',
    ratio: Number((oursPerSecond / theirsPerSecond).toFixed(2)),
    target: TARGET,
    oursClaimsPerSecond: Math.round(oursPerSecond),
    baselineClaimsPerSecond: Math.round(theirsPerSecond),
  }),
);
