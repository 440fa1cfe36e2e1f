// The money-in screens in Chromium (issue #14): a billing user uploads the payer's 835s for two submitted claims,
// sees one claim paid and the other denied on the remittance, the denial in the work queue with its reason in
// words and its next action (appeal, filtered and counted), and the patient's bill for what the payer left to the
// patient, with its statement downloaded as a PDF.
//
// Setup through the API: the admin checks eligibility of both patients' coverage on file (a claim needs an active
// check from the last 24 hours); pat_n_008's coverage is switched to a DEMO-CH-DENY member id first, so the
// sandbox payer denies that claim (CO-50). The sandbox clearinghouse also sends each accepted claim's 835 by itself
// a few seconds after submit. The files uploaded here are exactly those 835s (the sandbox's answer is pure and
// its trace derives from the claim id), so whichever arrives first posts and the other is recognised as the same
// remittance (idempotent on payer id and trace): the outcome is the same either way, and nothing posts twice.
import { test, expect } from 'playwright/test';
import { answerClaim } from '../lib/claims/sandbox-clearinghouse/answer-claim';
import { clinicToday } from '../lib/time/clinic-day';
import {
  expectPhoneFriendly,
  PASSWORD,
  signIn,
  signedInPage,
  submitClaimThroughApi,
  verifyCoverageOnFile,
} from './billing-setup';

const PAID_PATIENT = 'pat_n_007';
const DENIED_PATIENT = 'pat_n_008';
const NORTHSIDE_TIME_ZONE = 'America/New_York';

type Transmission = { direction: string; kind: string; controlNumber: string; x12: string };

test('billing uploads 835s and sees the claims paid, one denial in the work queue and the patient responsibility', async ({
  page,
  browser,
}) => {
  const admin = await signedInPage(browser, 'admin@northside.test');
  const billing = await signedInPage(browser, 'billing@northside.test');
  const coverage = await billing.request.put(`/api/patients/${DENIED_PATIENT}/coverage`, {
    data: { payerId: '60054', memberId: 'DEMO-CH-DENY-N008' },
  });
  expect(coverage.status(), await coverage.text()).toBe(200);
  await verifyCoverageOnFile(admin, PAID_PATIENT);
  await verifyCoverageOnFile(admin, DENIED_PATIENT);
  await admin.context().close();

  const today = clinicToday(new Date(), NORTHSIDE_TIME_ZONE);
  const claim = (patientId: string, code: string, chargeCents: number) => ({
    patientId,
    serviceDate: today,
    diagnoses: ['J06.9'],
    lines: [{ procedureCode: code, diagnosisPointers: [1], units: 1, chargeCents }],
  });
  const paid = await submitClaimThroughApi(billing, claim(PAID_PATIENT, '99214', 18_000));
  const denied = await submitClaimThroughApi(billing, claim(DENIED_PATIENT, '99213', 12_500));

  // The payer's 835 for each claim, as the sandbox clearinghouse writes it from the 837P it was sent.
  const remittanceFor = async (claimId: string) => {
    const answer = await billing.request.get(`/api/claims/${claimId}/transmissions`);
    expect(answer.status()).toBe(200);
    const body = (await answer.json()) as Transmission[] | { transmissions: Transmission[] };
    const sent = (Array.isArray(body) ? body : body.transmissions).find((t) => t.kind === '837P');
    expect(sent, `the 837P of ${claimId}`).toBeTruthy();
    const controlNumber = Number(sent!.controlNumber) || 1;
    const remittance = answerClaim({
      x12: sent!.x12,
      now: new Date(),
      controlNumbers: { ack999: controlNumber, ack277ca: controlNumber },
    }).remittance835?.(today);
    expect(remittance, `the sandbox's 835 for ${claimId}`).toBeTruthy();
    return remittance!;
  };
  const files = [
    { name: 'paid.835', mimeType: 'text/plain', buffer: Buffer.from(await remittanceFor(paid.claimId)) },
    { name: 'denied.835', mimeType: 'text/plain', buffer: Buffer.from(await remittanceFor(denied.claimId)) },
  ];
  await billing.context().close();

  await signIn(page, 'billing@northside.test');
  await page.goto('/remittances');
  await expect(page.getByRole('heading', { name: 'Remittances', level: 1 })).toBeVisible();
  const result = page.getByTestId('upload-result');
  const posted: string[] = [];
  for (const file of files) {
    await page.getByLabel('835 file from the payer').setInputFiles(file);
    await page.getByRole('button', { name: 'Post remittance' }).click();
    const link = result.getByRole('link', { name: /^trace / });
    await expect(link).toBeVisible();
    await expect(result).toContainText(/^(Posted|Already posted \(nothing changed\)): trace .*, 1 claim$/);
    const href = (await link.getAttribute('href'))!;
    expect(posted).not.toContain(href);
    posted.push(href);
  }
  await expect(page.getByTestId('upload-error')).toHaveCount(0);
  // Both are in the list (beside any other remittance of the demo clinic).
  for (const href of posted) await expect(page.locator(`tbody a[href="${href}"]`)).toBeVisible();

  // Each remittance: the claim's payment in dollars, what the payer decided, the reason codes in words.
  await page.goto(posted[0]!);
  const paidCard = page.getByTestId(`remittance-claim-${paid.claimId}`);
  await expect(paidCard.getByTestId('remittance-claim-status')).toContainText('Processed as primary');
  // Named: billing reads remittances without patients:read (issue 28's ids instead of names).
  await expect(paidCard.getByTestId('remittance-claim-patient')).toHaveText('Gray Northside007');
  await expect(paidCard.getByTestId('remittance-claim-paid')).not.toHaveText('$0.00');
  await expect(paidCard).toContainText('Contractual (write off)');
  await page.goto(posted[1]!);
  const deniedCard = page.getByTestId(`remittance-claim-${denied.claimId}`);
  await expect(deniedCard.getByTestId('remittance-claim-paid')).toHaveText('$0.00');
  await expect(deniedCard).toContainText('medical necessity');

  await page.goto(`/claims/${paid.claimId}`);
  await expect(page.getByTestId('claim-status')).toHaveAttribute('data-status', 'paid');
  await expect(page.getByTestId('claim-timeline')).toContainText('Payment posted from a remittance (835)');
  await page.goto(`/claims/${denied.claimId}`);
  await expect(page.getByTestId('claim-timeline')).toContainText('Denied by the payer in a remittance (835)');

  // The denial work queue: the denied claim with CO-50 in words, its next action and the way to appeal.
  await page.goto('/denials');
  const denial = page.getByTestId(`denial-${denied.claimId}`);
  await expect(denial).toBeVisible();
  await expect(denial).toContainText('Denied');
  await expect(denial.getByTestId('denial-codes')).toContainText('medical necessity');
  await expect(denial.getByTestId('denial-codes')).toContainText('CO-50');
  await expect(denial.getByTestId('denial-next-action')).toHaveAttribute('data-action', 'appeal');
  await expect(denial.getByTestId('denial-next-action')).toContainText('Next action: Appeal.');
  await expect(denial.getByTestId('denial-next-action')).toContainText('(CARC 50)');
  await expect(page.getByTestId(`denial-${paid.claimId}`)).toHaveCount(0);
  // Filtered by next action: the appeal filter keeps it, the write-off filter shows none.
  await expect(page.getByTestId('denials-count-appeal')).not.toHaveText('(0)');
  await page.getByRole('radio', { name: /^Write off/ }).check();
  await expect(page.getByTestId(`denial-${denied.claimId}`)).toHaveCount(0);
  await page.getByRole('radio', { name: /^Appeal/ }).check();
  await expect(denial).toBeVisible();
  await denial.getByRole('link', { name: `Appeal claim ${denied.claimId}` }).click();
  await expect(page.getByLabel('Why the payer should pay this claim')).toBeFocused();

  // The patient's bill: what the payer left to the patient on the paid claim.
  await page.goto('/bills');
  const bill = page.locator(`tr[data-claim="${paid.claimId}"]`);
  await expect(bill).toBeVisible();
  await expect(bill).toContainText('Patient responsibility on claim');
  await expect(bill.getByTestId('bill-amount')).toHaveText('$20.00');
  // At 1280 px every column is inside the list's card: a bill's long id breaks rather than pushing it past the edge.
  const billsTable = page.locator('table', { has: bill });
  const [cardBox, tableBox] = [
    await page.locator('section.card', { has: billsTable }).boundingBox(),
    await billsTable.boundingBox(),
  ];
  expect(tableBox!.x + tableBox!.width).toBeLessThanOrEqual(cardBox!.x + cardBox!.width);
  // Its statement, downloaded: a PDF named after the bill.
  const [download] = await Promise.all([page.waitForEvent('download'), bill.getByTestId('bill-statement').click()]);
  expect(download.suggestedFilename()).toMatch(/^statement-bill_[A-Za-z0-9_]+\.pdf$/);
  const pdf = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of pdf) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).subarray(0, 5).toString()).toBe('%PDF-');
  await expectPhoneFriendly(page);
  for (const path of ['/remittances', posted[0]!, '/denials', '/settlement', '/reconciliation']) {
    await page.goto(path);
    await expect(page.locator('h1')).toBeVisible();
    await expectPhoneFriendly(page);
  }
});

test('billing drafts a settlement instruction, signs it with step-up and executes it; the waterfall is in dollars', async ({
  page,
}) => {
  await signIn(page, 'billing@northside.test');
  await page.goto('/settlement');
  await expect(page.getByTestId('pool-pool_n_001')).toContainText('$10,000.00');

  await page.getByLabel('Advance (dollars)').fill('1,000.00');
  await page.getByLabel('Platform fee (percent)').fill('2.5');
  await page.getByLabel('Reserve held back (percent)').fill('5');
  await page.getByRole('button', { name: 'Draft instruction' }).click();
  const instruction = page.getByTestId('instruction');
  await expect(instruction).toHaveAttribute('data-status', 'DRAFT');
  const waterfall = instruction.getByRole('table', { name: 'Waterfall' });
  await expect(waterfall).toContainText('$1,000.00');
  await expect(waterfall).toContainText('$25.00');
  await expect(waterfall).toContainText('$50.00');
  await expect(waterfall).toContainText('$925.00');

  // Signing is step-up gated: the dialog asks for the password first.
  await instruction.getByRole('button', { name: 'Sign instruction' }).click();
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(instruction).toHaveAttribute('data-status', 'SIGNED');

  // Executing needs the rail's reference; the step-up just given still holds.
  await instruction.getByRole('button', { name: 'Execute instruction' }).click();
  await expect(instruction).toContainText("Enter the payment rail's reference");
  await instruction.getByLabel('Rail reference (ACH trace or wire reference)').fill('ACH-E2E-0001');
  await instruction.getByRole('button', { name: 'Execute instruction' }).click();
  await expect(instruction).toHaveAttribute('data-status', 'DISBURSED');
  await expect(instruction.getByRole('status')).toHaveText('Instruction executed: the advance was disbursed.');
  await expect(instruction).toContainText('$9,000.00 available');
  await expectPhoneFriendly(page);

  // The disbursement left the FBO account with no rail posting yet: tonight's reconciliation of today (UTC) finds
  // the ledger and the rail disagree, and the screen says so in words.
  const day = new Date().toISOString().slice(0, 10);
  const run = await page.request.post(`/api/jobs/reconcile?day=${day}`, {
    headers: { authorization: 'Bearer e2e-cron-secret' },
  });
  expect(run.status(), await run.text()).toBe(200);
  await page.goto('/reconciliation');
  const variances = page.getByTestId(`variance-day-${day}`);
  await expect(variances).toContainText("The day's ledger, bank (FBO) and rail totals disagree");
  await expect(variances).toContainText('rail $0.00');
  await expectPhoneFriendly(page);
});
