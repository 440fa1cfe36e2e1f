// npm run bench -- era-read: our 835 read (envelope, remittance object, the three TR3 balancing rules) against
// node-x12's bare parse of the same files, measured in one run after a warm-up. The corpus is generated from a
// fixed seed: 12 balanced 835s of 50 to 500 claims (one to four service lines each, CAS at both levels, PLB).
// Prints the ratio (our time / theirs, target at most 0.5) as the last line.
import { X12Parser } from 'node-x12';
import { build835 } from '../lib/x12/fixtures/build-835';
import { read835s } from '../lib/x12/read-835';
import type { CasAdjustment, ClaimPayment, Remittance, ServicePayment } from '../lib/x12/read-remittance';
import { compareMedians } from './support/compare-medians';
import { seededRandom } from '../lib/seeded-random';

type Cents = Remittance['paymentCents'];

function generateRemittance(random: () => number, claimCount: number, index: number): Remittance {
  const integer = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(items: readonly T[]) => items[integer(0, items.length - 1)]!;
  const total = (adjustments: readonly CasAdjustment[]) =>
    adjustments.reduce((sum, adjustment) => sum + adjustment.amountCents, 0);
  const adjustment = (group: string, reason: string, max: number): CasAdjustment => ({
    group,
    reason,
    amountCents: integer(0, max) as Cents,
  });

  const claims: ClaimPayment[] = [];
  for (let c = 0; c < claimCount; c++) {
    const lines: ServicePayment[] = [];
    for (let l = integer(1, 4); l > 0; l--) {
      const chargeCents = integer(5_000, 60_000) as Cents;
      const adjustments = [
        adjustment('CO', '45', Math.floor(chargeCents / 4)),
        ...(random() < 0.5 ? [adjustment('PR', pick(['1', '2', '3']), Math.floor(chargeCents / 4))] : []),
      ];
      lines.push({
        procedureCode: pick(['99213', '99214', '81002', '97110']),
        modifiers: random() < 0.3 ? ['25'] : [],
        chargeCents,
        paidCents: (chargeCents - total(adjustments)) as Cents,
        units: integer(1, 3),
        adjustments,
      });
    }
    const claimAdjustments = random() < 0.2 ? [adjustment('OA', '23', 1_000)] : [];
    const chargeCents = lines.reduce((sum, line) => sum + line.chargeCents, 0);
    const paidCents = lines.reduce((sum, line) => sum + line.paidCents, 0) - total(claimAdjustments);
    const patientResponsibility = lines.reduce(
      (sum, line) => sum + total(line.adjustments.filter((a) => a.group === 'PR')),
      0,
    );
    claims.push({
      claimId: `clm_${index}_${c}`,
      payerClaimId: `PCN${index}${c}`,
      statusCode: '1',
      chargeCents: chargeCents as Cents,
      paidCents: paidCents as Cents,
      patientResponsibilityCents: patientResponsibility as Cents,
      adjustments: claimAdjustments,
      lines,
    });
  }
  const providerAdjustments = [{ reason: 'L6', reference: `PCN${index}0`, amountCents: -integer(0, 500) as Cents }];
  // A PLB amount is an adjustment: the negative interest adds to the payment.
  const paymentCents = claims.reduce((sum, claim) => sum + claim.paidCents, 0) - providerAdjustments[0]!.amountCents;
  return {
    payerId: '60054',
    payerName: 'ACME HEALTH PLAN',
    payeeNpi: '1234567893',
    traceNumber: `EFT${index}`,
    paymentMethod: 'ACH',
    paymentCents: paymentCents as Cents,
    paymentDate: '2025-03-16',
    claims,
    providerAdjustments,
  };
}

const random = seededRandom(835);
const corpus = Array.from({ length: 12 }, (_, i) =>
  build835(generateRemittance(random, 50 + Math.round((450 * i) / 11), i)),
);

const { oursMs, theirsMs, sinks } = await compareMedians(import.meta.url, () => ({
  ours: () => {
    let read = 0;
    for (const text of corpus) read += read835s(text)[0]!.claims.length;
    return read;
  },
  theirs: () => {
    // A parser per document, as node-x12 is meant to be used: one instance keeps every interchange it parsed in
    // one growing fat interchange (~100 MB a round here), whose collection then landed inside either side's timing.
    let read = 0;
    for (const text of corpus) read += new X12Parser(true).parse(text) ? 1 : 0;
    return read;
  },
}));

const oursMsPerFile = oursMs / corpus.length;
const baselineMsPerFile = theirsMs / corpus.length;
const kib = corpus.reduce((sum, text) => sum + text.length, 0) / 1024;
console.error(`files: ${corpus.length}, ${kib.toFixed(0)} KiB, sinks ${JSON.stringify(sinks)}`);
console.log(
  JSON.stringify({
    name: 'era-read',
    ratio: Number((oursMsPerFile / baselineMsPerFile).toFixed(3)),
    target: 0.5,
    oursMsPerFile: Number(oursMsPerFile.toFixed(4)),
    baselineMsPerFile: Number(baselineMsPerFile.toFixed(4)),
  }),
);
