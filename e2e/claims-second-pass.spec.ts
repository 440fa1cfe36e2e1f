// The second pass in Chromium (DECISIONS "Claim lifecycle"): the admin adds a secondary coverage on the patient
// page and checks it; a claim the sandbox primary paid with a copay left is billed to the secondary from the claim
// page through the step-up dialog, the sandbox secondary pays half of that balance, and the claims show their link;
// the rest is the patient's bill, whose statement is downloaded and read back; then the primary is corrected from
// its page and its replacement's acceptance closes it.
import { extractText, getDocumentProxy } from 'unpdf';
import { test, expect, type Page } from 'playwright/test';
import { PASSWORD, signIn, signedInPage, submitClaimThroughApi, verifyCoverageOnFile } from './billing-setup';

const PATIENT = 'pat_n_009';
const SECONDARY_MEMBER = 'DEMO-ACTIVE-SEC009';
const NORTHSIDE_NPI = '1234567893';

async function confirmStepUp(page: Page) {
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
}

test('a claim paid in part by the primary is billed to the secondary, paid, the rest billed to the patient, then corrected', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await signedInPage(browser, 'admin@northside.test');
  await verifyCoverageOnFile(admin, PATIENT);
  await admin.goto(`/patients/${PATIENT}`);
  const secondary = admin.getByTestId('secondary-coverage-on-file');
  await secondary.getByRole('button', { name: /secondary coverage/ }).click();
  await secondary.getByLabel('Payer', { exact: true }).selectOption('87726');
  await secondary.getByLabel('Member id').fill(SECONDARY_MEMBER);
  await secondary.getByRole('button', { name: 'Save coverage on file' }).click();
  await expect(secondary).toContainText(SECONDARY_MEMBER);
  const { firstName, lastName, birthDate } = await (await admin.request.get(`/api/patients/${PATIENT}`)).json();
  const check = await admin.request.post('/api/eligibility/verify', {
    data: {
      patientId: PATIENT,
      firstName,
      lastName,
      dob: birthDate,
      memberId: SECONDARY_MEMBER,
      payerName: 'UnitedHealthcare',
      payerId: '87726',
      npi: NORTHSIDE_NPI,
    },
  });
  expect(check.status()).toBe(200);
  expect((await check.json()).status).toBe('active');
  await admin.context().close();

  await signIn(page, 'billing@northside.test');
  const serviceDate = new Date(Date.now() - 4 * 86_400_000).toISOString().slice(0, 10);
  const { claimId } = await submitClaimThroughApi(page, {
    patientId: PATIENT,
    serviceDate,
    diagnoses: ['J02.9'],
    lines: [{ procedureCode: '99215', diagnosisPointers: [1], units: 1, chargeCents: 18_700 }],
  });
  // A fresh session for the screen: the API step-up above is not the dialog's to reuse.
  await page.context().clearCookies();
  await signIn(page, 'billing@northside.test');
  await page.goto(`/claims/${claimId}`);
  // The sandbox primary's 835 arrives a few seconds after acceptance: allowed $149.60, $20.00 copay, paid $129.60.
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByTestId('claim-status').getAttribute('data-status');
      },
      { timeout: 40_000, intervals: [2_000] },
    )
    .toBe('paid');
  await expect(page.getByTestId('claim-paid')).toHaveText('$129.60');

  await page.getByRole('button', { name: 'Bill secondary' }).click();
  await confirmStepUp(page);
  await expect(page.getByTestId('claim-notice')).toContainText('Bill the secondary payer: claim clm_');
  const links = page.getByTestId('claim-links');
  await expect(links).toContainText('Billed to the secondary payer as');
  const secondaryLink = links.getByRole('link', { name: /^clm_[0-9a-f]{16}$/ });
  const secondaryId = (await secondaryLink.textContent())!;

  await secondaryLink.click();
  await expect(page.getByRole('heading', { name: `Claim ${secondaryId}` })).toBeVisible();
  await expect(page.getByTestId('claim-links')).toContainText(`Secondary claim of ${claimId}`);
  // Half of the $20.00 the primary left: $10.00 (CLP02 2), the other $10.00 the patient's (PR-2).
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByTestId('claim-status').getAttribute('data-status');
      },
      { timeout: 40_000, intervals: [2_000] },
    )
    .toBe('paid');
  await expect(page.getByTestId('claim-paid')).toHaveText('$10.00');
  await page.getByTestId('claim-transmissions').getByText('Sent: Claim sent (837P)').click();
  await expect(page.getByTestId('claim-transmissions').locator('pre').first()).toContainText('AMT*D*129.6~');

  // The patient's share: the primary left 2,000 cents (copay, PR-3), the secondary paid 1,000 of it, so the
  // visit's bill (raised on the primary claim) is 1,000 cents, and its statement says so.
  await page.goto('/bills');
  const bill = page.locator(`tr[data-claim="${claimId}"]`);
  await expect(bill.getByTestId('bill-amount')).toHaveText('$10.00');
  const [download] = await Promise.all([page.waitForEvent('download'), bill.getByTestId('bill-statement').click()]);
  expect(download.suggestedFilename()).toMatch(/^statement-bill_[A-Za-z0-9_]+\.pdf$/);
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(Buffer.concat(chunks))), {
    mergePages: true,
  });
  expect(text).toContain('Northside Clinic');
  expect(text).toContain('$187.00');
  expect(text).toContain('$10.00');

  // The primary, corrected: a replacement with a lower charge; its acceptance closes the original.
  await page.goto(`/claims/${claimId}`);
  await page.getByRole('button', { name: 'Correct' }).click();
  await page.getByLabel('Charge ($)').fill('150.00');
  await page.getByRole('button', { name: 'Send the replacement' }).click();
  // The step-up confirmed for the secondary may still hold; the dialog appears only when it has lapsed.
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  const prompted = await dialog
    .waitFor({ state: 'visible', timeout: 3_000 })
    .then(() => true)
    .catch(() => false);
  if (prompted) await confirmStepUp(page);
  await expect(page.getByTestId('claim-notice')).toContainText('Correct the claim: claim clm_');
  await expect(page.getByTestId('claim-status')).toHaveAttribute('data-status', 'closed');
  await expect(page.getByTestId('claim-status-reason')).toContainText('Replaced by claim clm_');
  await expect(page.getByTestId('claim-links')).toContainText('Replaced by');
});
